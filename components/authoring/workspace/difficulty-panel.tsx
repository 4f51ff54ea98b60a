'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { BaselineOutcome, DifficultyCheck, DifficultyLabel, RankedEntity } from '@/lib/authoring/difficulty';
import { plural } from '@/lib/format/plural';
import { requestJson } from '@/components/queries/api';
import { assignmentApi, entityPage } from '../api';

/** While the index is being built, the check is asked again this often. */
const BUILDING_POLL_MS = 3000;

const LABEL_STYLE: Record<DifficultyLabel, string> = {
  easy: 'bg-green-100 text-green-900',
  medium: 'bg-amber-100 text-amber-900',
  hard: 'bg-red-100 text-red-900',
};

const count = (n: number) => n.toLocaleString('en');

function Label({ label }: { label: DifficultyLabel }) {
  return <span className={`rounded px-1.5 text-xs font-medium ${LABEL_STYLE[label]}`}>{label}</span>;
}

const rankWords = (e: RankedEntity, entities: number) => (e.rank === null ? `not retrieved (of ${count(entities)})` : `rank ${count(e.rank)} of ${count(entities)}`);

/** One baseline's ranks of the seed and the answers, or why it has none. */
function Baseline({ outcome: b, kbSlug }: { outcome: BaselineOutcome; kbSlug: string }) {
  if (b.status === 'no-index') {
    return <p className="text-slate-600" data-testid={`difficulty-${b.baseline}`}>{b.name}: difficulty check available once the search index is built (it is being built now).</p>;
  }
  if (b.status === 'unavailable') {
    return <p className="break-words text-slate-600" data-testid={`difficulty-${b.baseline}`}>{b.name}: not available, the query could not be embedded ({b.reason}).</p>;
  }
  return (
    <div className="space-y-1" data-testid={`difficulty-${b.baseline}`}>
      <p data-testid={`difficulty-${b.baseline}-seed`}>
        {b.seed.rank === null
          ? <>{b.name} does not retrieve the seed ({plural(b.entities, 'entity')} ranked): </>
          : <>{b.name} finds the seed at rank {count(b.seed.rank)} of {count(b.entities)}: </>}
        <Label label={b.seed.label} />
      </p>
      {b.answers.length > 0 && (
        <ul className="ml-4 list-disc space-y-0.5 text-xs text-slate-700" aria-label={`${b.name} ranks of the answers judged relevant`}>
          {b.answers.map((e) => (
            <li key={e.entityId} className="break-words">
              <a href={entityPage(kbSlug, e.entityId)} target="_blank" rel="noreferrer" className="text-blue-700 hover:underline">{e.name}</a>
              {': '}{rankWords(e, b.entities)} <Label label={e.label} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * How hard the query is for the baselines, as last saved: where each ranks the seed and the answers judged
 * relevant so far, and a warning when the campaign's target says they rank too high. Asked again after every
 * autosave (`savedVersion`) and judgment (`relevant`); the previous answer stays shown meanwhile.
 */
export function DifficultyPanel({ assignmentId, kbSlug, savedVersion, relevant }: { assignmentId: number; kbSlug: string; savedVersion: number; relevant: number[] }) {
  const check = useQuery({
    queryKey: ['assignment-difficulty', assignmentId, savedVersion, relevant.join(',')],
    queryFn: () => requestJson<DifficultyCheck>(`${assignmentApi(assignmentId)}/difficulty`),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.baselines.some((b) => b.status === 'no-index') ? BUILDING_POLL_MS : false),
  });
  const data = check.data;
  if (check.error && !data) return <p role="alert" className="text-sm text-red-700">Could not check the difficulty: {check.error.message}</p>;
  if (!data) return <p className="text-sm text-slate-500">Checking…</p>;
  if (!data.hasQuery) return <p className="text-sm text-slate-500" data-testid="difficulty-empty">Write the query: once it is saved, this shows where BM25 ranks the seed and your answers.</p>;

  return (
    <div className="space-y-3 text-sm" data-testid="difficulty" aria-live="polite" aria-busy={check.isFetching}>
      {data.baselines.map((b) => <Baseline key={b.baseline} outcome={b} kbSlug={kbSlug} />)}
      {data.withinTarget.length > 0 && (
        <div role="alert" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900" data-testid="difficulty-target-warning">
          <p>
            This campaign’s target: answers should not be in BM25’s top {data.target}. Within it:{' '}
            {data.withinTarget.map((e) => `${e.seed ? 'the seed' : e.name} (rank ${e.rank})`).join(', ')}.
          </p>
          <p className="text-xs">Rephrase so the words give less away; this is a warning, you can still submit.</p>
        </div>
      )}
      <p className="text-xs text-slate-500">
        For the query as last saved. Easy: rank 1–5; medium: 6–20; hard: beyond 20 or not retrieved.
        {data.target !== null && data.withinTarget.length === 0 && ` Target met: none in BM25’s top ${data.target}.`}
      </p>
    </div>
  );
}
