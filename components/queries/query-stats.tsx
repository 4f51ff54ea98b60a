'use client';

import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { ReleaseSummary } from '@/lib/queries/releases';
import type { QueryGroupStats } from '@/lib/queries/set-stats';
import type { QuerySourceStats } from '@/lib/queries/stats';
import { requestJson, setApi } from './api';
import { DifficultyStats } from './difficulty-stats';
import { Field } from './field';
import { fmtCount, fmtPercent, splitLabel } from './format';
import { HistogramChart } from './histogram-chart';
import { intParam } from './use-url-params';

interface Props {
  slug: string;
  name: string;
  params: URLSearchParams;
  setParams: (patch: Record<string, string | number | null>) => void;
}

type Row = QueryGroupStats & { key: string; label: string; share: number };

/**
 * The set (or one release, `?release=N`) described as the STaRK paper describes its query sets: Table 3
 * (queries, several answers, answers per query, split shares), Table 4 (lexical diversity) and the
 * distributions of query length and answer count.
 */
export function QueryStats({ slug, name, params, setParams }: Props) {
  const release = intParam(params, 'release', 0) || null;
  const [chartSplit, setChartSplit] = useState('');
  const releases = useQuery({
    queryKey: ['query-set-releases', slug, name],
    queryFn: () => requestJson<{ items: ReleaseSummary[] }>(`${setApi(slug, name)}/releases`),
  });
  const stats = useQuery({
    queryKey: ['query-set-stats', slug, name, release],
    queryFn: () => requestJson<QuerySourceStats>(`${setApi(slug, name)}/stats${release ? `?release=${release}` : ''}`),
  });
  const data = stats.data;
  const shareOf = (split: string | null) => data?.splits.find((s) => s.split === split)?.ratio ?? 0;
  // Per-split rows only when the set has splits: a lone "(no split)" row would repeat "All".
  const splitRows = data?.bySplit.some((s) => s.split !== null) ? data.bySplit : [];
  const rows: Row[] = data ? [
    ...splitRows.map((s) => ({ ...s, key: s.split === null ? '*none*' : `split:${s.split}`, label: splitLabel(s.split), share: shareOf(s.split) })),
    { ...data, key: '*all*', label: 'All', share: 1 },
  ] : [];
  const charted = rows.find((r) => r.key === chartSplit) ?? rows[rows.length - 1];

  return (
    <section aria-labelledby="stats-heading" className="space-y-4 text-sm">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h2 id="stats-heading" className="text-lg font-medium">Statistics</h2>
        <Field id="stats-release" label="Of" inline>
          <select id="stats-release" value={release ?? ''} onChange={(e) => setParams({ release: e.target.value || null })} className="rounded border border-slate-300 px-2 py-1">
            <option value="">the current queries</option>
            {releases.data?.items.map((r) => <option key={r.number} value={r.number}>release {r.number}: {r.name}</option>)}
          </select>
        </Field>
      </div>
      {stats.error && <p role="alert" className="text-red-700">Could not compute the statistics: {stats.error.message}</p>}
      {!data && !stats.error && <p className="text-slate-500">Computing…</p>}
      {data && charted && (
        <>
          <Panel title="Queries and answers" note="As in Table 3 of the STaRK paper; the share is of all queries of the set.">
            <div className="table-scroll">
              <table className="w-full" data-testid="stats-table">
                <thead className="text-left text-slate-600">
                  <tr>
                    <th scope="col" className="py-1">Split</th><Num>Queries</Num><Num>Share</Num><Num>With several answers</Num>
                    <Num>Answers per query</Num><Num>Words per query</Num>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <tr key={r.key} className={`border-t border-slate-100 ${r.key === '*all*' ? 'font-medium' : ''}`}>
                      <th scope="row" className="py-1 text-left font-normal">{r.label}</th>
                      <Cell>{fmtCount(r.queries)}</Cell><Cell>{fmtPercent(r.share)}</Cell><Cell>{fmtCount(r.multiAnswer)}</Cell>
                      <Cell>{r.averageAnswers.toFixed(2)}</Cell><Cell>{r.averageWords.toFixed(1)}</Cell>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p className="mt-2 text-xs text-slate-500">
              {fmtCount(data.withSeeds)} {data.withSeeds === 1 ? 'query names' : 'queries name'} seed entities;
              {' '}{fmtCount(data.unresolvedAnswers)} distinct answer {data.unresolvedAnswers === 1 ? 'id is' : 'ids are'} not in the knowledge base.
            </p>
          </Panel>
          <Panel title="Lexical diversity" note="As in Table 4 of the STaRK paper: over the words of all queries (lower-cased, NFKC); entropy in bits of the word frequencies.">
            <div className="table-scroll">
              <table className="w-full" data-testid="lexical-table">
                <thead className="text-left text-slate-600">
                  <tr><th scope="col" className="py-1">Split</th><Num>Words</Num><Num>Distinct words</Num><Num>Entropy (bits)</Num><Num>Type-token ratio</Num></tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <tr key={r.key} className={`border-t border-slate-100 ${r.key === '*all*' ? 'font-medium' : ''}`}>
                      <th scope="row" className="py-1 text-left font-normal">{r.label}</th>
                      <Cell>{fmtCount(r.lexical.tokens)}</Cell><Cell>{fmtCount(r.lexical.types)}</Cell>
                      <Cell>{r.lexical.entropyBits.toFixed(2)}</Cell><Cell>{r.lexical.typeTokenRatio.toFixed(4)}</Cell>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </Panel>
          <Panel title="Difficulty for the baselines" note="The share of queries each baseline solves: its first right answer at rank 1 (Hit@1) or in the top 5 (Hit@5), from its latest finished run on these queries; per split and per origin (human, synthesized, imported, as each query records it).">
            <div data-testid="difficulty-stats"><DifficultyStats baselines={data.difficulty} /></div>
          </Panel>
          <div className="rounded-lg border border-slate-200 bg-white p-4">
            <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
              <h3 className="font-medium">Distributions</h3>
              {rows.length > 1 && <Field id="stats-chart-split" label="Charts of" inline>
                <select id="stats-chart-split" value={chartSplit} onChange={(e) => setChartSplit(e.target.value)} className="rounded border border-slate-300 px-2 py-1">
                  {rows.map((r) => <option key={r.key} value={r.key === '*all*' ? '' : r.key}>{r.key === '*all*' ? 'all queries' : r.label}</option>)}
                </select>
              </Field>}
            </div>
            <div className="grid gap-4 md:grid-cols-2">
              <figure>
                <figcaption className="mb-1 text-slate-600">Query length</figcaption>
                <HistogramChart bins={charted.lengthHistogram} label="Query length in words" axisLabel="words per query" testId="length-chart" />
              </figure>
              <figure>
                <figcaption className="mb-1 text-slate-600">Answers per query</figcaption>
                <HistogramChart bins={charted.answerHistogram} label="Answers per query" axisLabel="answers per query" testId="answer-chart" />
              </figure>
            </div>
          </div>
        </>
      )}
    </section>
  );
}

function Panel({ title, note, children }: { title: string; note: string; children: ReactNode }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <h3 className="font-medium">{title}</h3>
      <p className="mb-2 text-xs text-slate-500">{note}</p>
      {children}
    </div>
  );
}

const Num = ({ children }: { children: string }) => <th scope="col" className="py-1 text-right">{children}</th>;
const Cell = ({ children }: { children: string }) => <td className="py-1 text-right tabular-nums">{children}</td>;
