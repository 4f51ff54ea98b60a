'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { METRICS, METRIC_LABELS } from '@/lib/queries/metrics';
import type { ReleaseSummary } from '@/lib/queries/releases';
import type { RunFormat } from '@/lib/queries/run-files';
import type { RunSummary } from '@/lib/queries/runs';
import { ApiError, requestJson, runPage, setApi, type LineProblem } from './api';
import { fmtCount, fmtScore } from './format';
import { EmbeddingsSummary, useSetEmbeddings } from './embeddings-summary';
import { Field } from './field';
import { ProblemTable } from './problem-table';
import { RunCompare } from './run-compare';
import { When } from '@/components/when';

interface Props {
  slug: string;
  name: string;
  canManage: boolean;
  params: URLSearchParams;
  setParams: (patch: Record<string, string | number | null>) => void;
}

// Listed here rather than imported: run-files.ts brings its parsers into the browser bundle.
const RUN_FORMATS: readonly RunFormat[] = ['trec', 'csv', 'jsonl'];

/** The runs scored on the set, with their mean metrics; upload a run, compute the baseline, compare two runs. */
export function RunPanel({ slug, name, canManage, params, setParams }: Props) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const runsKey = ['query-set-runs', slug, name];
  const runs = useQuery({
    queryKey: runsKey,
    queryFn: () => requestJson<{ items: RunSummary[] }>(`${setApi(slug, name)}/runs`),
    // A run being computed (the baseline) shows its progress: poll every second until none is.
    refetchInterval: (q) => (q.state.data?.items.some((r) => r.status === 'RUNNING') ? 1000 : false),
  });
  const refresh = () => {
    // The page's header counts the runs.
    router.refresh();
    return queryClient.invalidateQueries({ queryKey: runsKey });
  };
  const items = runs.data?.items ?? [];
  const baselineRunning = items.some((r) => r.baseline && r.status === 'RUNNING');

  return (
    <section aria-labelledby="runs-heading" className="space-y-4 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="runs-heading" className="text-lg font-medium">Runs</h2>
        {canManage
          ? <BaselineForm slug={slug} name={name} running={baselineRunning} onStarted={refresh} />
          : <p className="text-xs text-slate-500" data-testid="role-note">Curators and admins compute baselines; any role can upload a run file.</p>}
      </div>
      <EmbeddingsSummary slug={slug} name={name} />
      {runs.error && <p role="alert" className="text-red-700">Could not load the runs: {runs.error.message}</p>}
      {runs.data && (items.length === 0
        ? <p className="text-slate-500">No run scored yet. Upload a run file below{canManage ? ' or compute a baseline' : ''}.</p>
        : <RunTable slug={slug} name={name} runs={items} />)}
      <RunUploadForm slug={slug} name={name} onScored={refresh} />
      <RunCompare slug={slug} name={name} runs={items.filter((r) => r.status === 'DONE')} params={params} setParams={setParams} />
    </section>
  );
}

type BaselineChoice = 'bm25' | 'bm25-relations' | 'fulltext' | 'vector' | 'hybrid';

/**
 * Starts a baseline: BM25 (k1, b; documents with or without relation lines; stop words, stemming), PostgreSQL's
 * ts_rank, or, once entity and query embeddings of one name exist, vector (exact cosine) and hybrid (BM25 with
 * default parameters fused with the vectors by reciprocal rank) with the embedding set chosen.
 */
function BaselineForm({ slug, name, running, onStarted }: { slug: string; name: string; running: boolean; onStarted: () => unknown }) {
  const [choice, setChoice] = useState<BaselineChoice>('bm25');
  const [k1, setK1] = useState('1.2');
  const [b, setB] = useState('0.75');
  const [stopWords, setStopWords] = useState(false);
  const [stemming, setStemming] = useState(false);
  const usable = useSetEmbeddings(slug, name).data?.usable ?? [];
  const [chosenEmbeddings, setEmbeddings] = useState('');
  const embeddings = usable.includes(chosenEmbeddings) ? chosenEmbeddings : usable[0] ?? '';
  const baseline = useMutation({
    mutationFn: () => requestJson<RunSummary>(`${setApi(slug, name)}/runs/baseline`, {
      method: 'POST',
      json: choice === 'fulltext' ? { method: 'fulltext' }
        : choice === 'vector' || choice === 'hybrid' ? { method: choice, embeddings }
        : { method: 'bm25', k1: Number(k1), b: Number(b), relations: choice === 'bm25-relations', stopWords, stemming },
    }),
    onSuccess: onStarted,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    baseline.mutate();
  };
  const bm25 = choice === 'bm25' || choice === 'bm25-relations';
  const byVectors = (choice === 'vector' || choice === 'hybrid') && usable.length > 0;
  return (
    <form onSubmit={submit} className="flex flex-wrap items-center gap-2">
      <label htmlFor="baseline-method" className="text-slate-600">Baseline</label>
      <select id="baseline-method" value={choice} onChange={(e) => setChoice(e.target.value as BaselineChoice)} className="rounded border border-slate-300 px-2 py-1">
        <option value="bm25">BM25</option>
        <option value="bm25-relations">BM25 with relation lines</option>
        <option value="fulltext">Full-text (ts_rank)</option>
        {usable.length > 0 && <option value="vector">Vector (exact cosine)</option>}
        {usable.length > 0 && <option value="hybrid">Hybrid (BM25 + vector, RRF)</option>}
      </select>
      {byVectors && (
        <>
          <label htmlFor="baseline-embeddings" className="text-slate-600">Embeddings</label>
          <select id="baseline-embeddings" value={embeddings} onChange={(e) => setEmbeddings(e.target.value)} className="rounded border border-slate-300 px-2 py-1">
            {usable.map((n) => <option key={n} value={n}>{n}</option>)}
          </select>
        </>
      )}
      {bm25 && (
        <>
          <label htmlFor="baseline-k1" className="text-slate-600">k1</label>
          <input id="baseline-k1" type="number" min={0} step="0.05" required value={k1} onChange={(e) => setK1(e.target.value)} className="w-20 rounded border border-slate-300 px-2 py-1" />
          <label htmlFor="baseline-b" className="text-slate-600">b</label>
          <input id="baseline-b" type="number" min={0} max={1} step="0.05" required value={b} onChange={(e) => setB(e.target.value)} className="w-20 rounded border border-slate-300 px-2 py-1" />
          <label className="flex items-center gap-1 text-slate-600" title="Drop English stop words (Lucene's list) from documents and queries">
            <input type="checkbox" checked={stopWords} onChange={(e) => setStopWords(e.target.checked)} /> Stop words removed
          </label>
          <label className="flex items-center gap-1 text-slate-600" title="Reduce words with the Porter stemmer in documents and queries">
            <input type="checkbox" checked={stemming} onChange={(e) => setStemming(e.target.checked)} /> Stemming
          </label>
        </>
      )}
      <button type="submit" disabled={baseline.isPending || running}
        className="rounded border border-blue-600 px-3 py-1 text-blue-700 hover:bg-blue-50 disabled:opacity-60">
        {running ? 'Computing baseline…' : 'Compute baseline'}
      </button>
      {baseline.error && <p role="alert" className="w-full rounded bg-red-50 px-3 py-2 text-red-700">{baseline.error.message}</p>}
    </form>
  );
}

function RunTable({ slug, name, runs }: { slug: string; name: string; runs: RunSummary[] }) {
  return (
    // Every metric fits beside the run at a laptop's width (1,366 px): when it was made goes under its name, not in a column of its own.
    <div className="table-scroll">
      <table className="w-full text-sm" data-testid="run-table">
        <thead className="text-left text-slate-600">
          <tr>
            <th scope="col" className="py-1 pr-3">Run</th><th scope="col" className="pr-3">Scored on</th><th scope="col" className="pr-3">Status</th>
            <th scope="col" className="pr-2 text-right">Queries</th>
            {METRICS.map((m) => <th key={m} scope="col" className="whitespace-nowrap px-2 text-right">{METRIC_LABELS[m]}</th>)}
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => {
            const means = r.summary?.overall.means;
            return (
              <tr key={r.id} className="border-t border-slate-100" data-testid={`run-${r.id}`}>
                <td className="py-1 pr-3">
                  <Link href={runPage(slug, name, r.id)} className="text-blue-700 hover:underline">{r.name}</Link>
                  <span className="block text-xs text-slate-500"><When at={r.createdAt} /></span>
                </td>
                <td className="pr-3 text-slate-600">{r.release ? `release ${r.release}` : 'current queries'}</td>
                <td className="pr-3"><RunStatus run={r} /></td>
                <td className="pr-2 text-right tabular-nums">{r.summary ? fmtCount(r.summary.overall.queries) : '—'}</td>
                {METRICS.map((m) => <td key={m} className="px-2 text-right tabular-nums" data-metric={m}>{means ? fmtScore(means[m]) : '—'}</td>)}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** DONE or FAILED as text; RUNNING with its progress (queries ranked of all, or a step before ranking, e.g. BM25's index build). */
export function RunStatus({ run }: { run: RunSummary }) {
  if (run.status === 'RUNNING') {
    const percent = run.total ? Math.round((100 * run.done) / run.total) : 0;
    return (
      <span className="flex items-center gap-2">
        <span role="progressbar" aria-label={`Progress of ${run.name}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}
          className="inline-block h-2 w-20 overflow-hidden rounded bg-slate-100">
          <span className="block h-full bg-blue-600" style={{ width: `${percent}%` }} />
        </span>
        <span className="text-xs text-slate-600">{run.message ?? `${fmtCount(run.done)} of ${fmtCount(run.total)}`}</span>
      </span>
    );
  }
  if (run.status === 'FAILED') return <span className="text-red-700" title={run.message ?? undefined}>failed</span>;
  return <span className="text-green-700">done</span>;
}

/** Sends a run file as the request body; the server refuses a file with problems, listing each with its line. */
function RunUploadForm({ slug, name, onScored }: { slug: string; name: string; onScored: () => void }) {
  const [problems, setProblems] = useState<LineProblem[]>([]);
  const [fileError, setFileError] = useState<string | null>(null);
  const releases = useQuery({
    queryKey: ['query-set-releases', slug, name],
    queryFn: () => requestJson<{ items: ReleaseSummary[] }>(`${setApi(slug, name)}/releases`),
  });
  const upload = useMutation({
    mutationFn: ({ file, search }: { file: File; search: URLSearchParams }) =>
      requestJson<RunSummary>(`${setApi(slug, name)}/runs?${search}`, { method: 'POST', body: file, headers: { 'content-type': 'application/octet-stream' } }),
    onSuccess: onScored,
    onError: (err) => setProblems(err instanceof ApiError ? err.problems : []),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const file = form.get('run');
    setProblems([]);
    if (!(file instanceof File) || file.name === '') return setFileError('Pick the run file.');
    if (file.size === 0) return setFileError(`${file.name} is empty.`);
    setFileError(null);
    const search = new URLSearchParams({ file: file.name });
    for (const key of ['name', 'format', 'release']) {
      const value = String(form.get(key) ?? '').trim();
      if (value) search.set(key, value);
    }
    upload.mutate({ file, search }, { onSuccess: () => formElement.reset() });
  }

  const scored = upload.data;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3 rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="run-upload-heading">
      <h3 id="run-upload-heading" className="font-medium">Evaluate a run</h3>
      <p className="text-xs text-slate-500">
        A ranking per query: TREC run lines (<code>qid Q0 entity rank score tag</code>), CSV with <code>query_id,entity_id,score</code>,
        or JSONL with <code>query_id</code> and <code>ranking</code>. Entity ids are the knowledge base’s external ids.
      </p>
      <div className="grid gap-3 md:grid-cols-4">
        <Field id="run-file" label="Run file" error={fileError ?? undefined}>
          <input id="run-file" name="run" type="file" aria-invalid={!!fileError} className="rounded border border-slate-300 px-2 py-1" />
        </Field>
        <Field id="run-name" label="Run name (optional)">
          <input id="run-name" name="name" maxLength={200} placeholder="the file’s run tag" className="rounded border border-slate-300 px-2 py-1" />
        </Field>
        <Field id="run-format" label="Format">
          <select id="run-format" name="format" defaultValue="" className="rounded border border-slate-300 px-2 py-1">
            <option value="">detect from the file</option>
            {RUN_FORMATS.map((f) => <option key={f} value={f}>{f}</option>)}
          </select>
        </Field>
        <Field id="run-release" label="Score against">
          <select id="run-release" name="release" defaultValue="" className="rounded border border-slate-300 px-2 py-1">
            <option value="">the current queries</option>
            {releases.data?.items.map((r) => <option key={r.number} value={r.number}>release {r.number}: {r.name}</option>)}
          </select>
        </Field>
      </div>
      {upload.error && <p role="alert" className="rounded bg-red-50 px-3 py-2 text-red-700">{upload.error.message}</p>}
      {problems.length > 0 && <ProblemTable problems={problems} caption="Problems in the run file; it was not scored." testId="run-problems" />}
      {scored && !upload.isPending && (
        <p role="status" className="rounded bg-green-50 px-3 py-2 text-green-800">
          Scored <Link href={runPage(slug, name, scored.id)} className="text-blue-700 hover:underline">{scored.name}</Link>
          {scored.summary?.overall.means && <>: MRR {fmtScore(scored.summary.overall.means.mrr)}</>}
          {scored.warnings.length > 0 && <> · {scored.warnings.length} warning{scored.warnings.length > 1 ? 's' : ''} (tied scores), listed on the run’s page</>}
        </p>
      )}
      <button type="submit" disabled={upload.isPending} className="rounded bg-blue-600 px-3 py-1.5 font-medium text-white hover:bg-blue-700 disabled:opacity-60">
        {upload.isPending ? 'Scoring…' : 'Evaluate run'}
      </button>
    </form>
  );
}
