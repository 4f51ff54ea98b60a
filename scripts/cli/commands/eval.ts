import fs from 'node:fs';
import path from 'node:path';
import cliProgress from 'cli-progress';
import { pool } from '../../../lib/db/client';
import { baselineSchema, runBaseline, startBaseline, type BaselineOptions } from '../../../lib/queries/baseline';
import { METRICS, METRIC_LABELS } from '../../../lib/queries/metrics';
import type { RunFormat } from '../../../lib/queries/run-files';
import { evaluateRunFile, getRun, runTarget } from '../../../lib/queries/runs';
import { querySetByName } from '../../../lib/queries/sets';
import { plural } from '../../../lib/format/plural';
import { textTable } from '../../../lib/format/table';
import { withDatabase } from '../database';
import { report } from '../output';
import { formatDuration } from './import-progress';

export interface EvalOptions {
  set: string;
  run?: string;
  /** true alone means BM25. */
  baseline?: boolean | 'bm25' | 'fulltext' | 'vector' | 'hybrid';
  /** vector and hybrid: the embedding set's name. */
  embeddings?: string;
  k1?: number;
  b?: number;
  relations?: boolean;
  stopWords?: boolean;
  stemming?: boolean;
  format?: RunFormat;
  name?: string;
  release?: number;
  json?: boolean;
}

/** The API's checks, reported with the options' names (e.g. "--b: b must be between 0 and 1"). */
function baselineOptions(opts: EvalOptions): BaselineOptions {
  const parsed = baselineSchema.safeParse({ method: opts.baseline === true ? 'bm25' : opts.baseline, k1: opts.k1, b: opts.b, embeddings: opts.embeddings, relations: opts.relations, stopWords: opts.stopWords, stemming: opts.stemming });
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; '));
  return parsed.data;
}

export async function run(opts: EvalOptions): Promise<void> {
  if (Boolean(opts.run) === Boolean(opts.baseline)) throw new Error('Give either --run FILE or --baseline');
  if (opts.run && !fs.existsSync(opts.run)) throw new Error(`No such file: ${opts.run}`);
  if (opts.embeddings && !opts.baseline) throw new Error('--embeddings goes with --baseline vector or hybrid');
  if (!opts.baseline && (opts.k1 !== undefined || opts.b !== undefined || opts.relations || opts.stopWords || opts.stemming)) {
    throw new Error('--k1, --b, --relations, --stop-words and --stemming go with --baseline');
  }
  const baseline = opts.baseline ? baselineOptions(opts) : null;
  const showBar = !opts.json && !!process.stderr.isTTY;
  const result = await withDatabase(async () => {
    const set = await querySetByName(pool(), opts.set);
    const target = await runTarget(pool(), set, opts.release);
    let id: number;
    if (opts.run) {
      id = await evaluateRunFile(pool(), target, { name: opts.name ?? '', fileName: path.basename(opts.run), text: fs.readFileSync(opts.run, 'utf8'), format: opts.format, userId: null });
    } else {
      id = await startBaseline(pool(), target, null, baseline!);
      // One bar: the index's documents while it is built (the first BM25 run of a variant), then the queries,
      // each with its rate and the time left at that rate.
      const bar = showBar ? new cliProgress.SingleBar({ format: '{task} [{bar}] {value}/{total} {unit} | {rate}/s | {left} left', stream: process.stderr }, cliProgress.Presets.shades_classic) : null;
      bar?.start(1, 0, { task: 'baseline', unit: 'queries', rate: 0, left: formatDuration(null) });
      const show = (task: string, unit: string) => {
        let started: { at: number; done: number } | null = null;
        return (done: number, total: number) => {
          // The bar starts afresh for each task, so its time left is not mixed with the other's.
          if (!started) bar?.start(total, done, { task, unit, rate: 0, left: formatDuration(null) });
          started ??= { at: performance.now(), done };
          const seconds = (performance.now() - started.at) / 1000;
          const rate = seconds > 0 ? (done - started.done) / seconds : 0;
          bar?.setTotal(total);
          bar?.update(done, { task, unit, rate: Math.round(rate).toLocaleString('en'), left: formatDuration(rate > 0 ? (total - done) / rate : null) });
        };
      };
      try {
        await runBaseline(pool(), target, id, null, show('baseline', 'queries'), baseline!, show('BM25 index', 'documents'));
      } finally {
        bar?.stop();
      }
    }
    return getRun(pool(), set.id, id);
  }, { quiet: opts.json });
  const row = (label: string, m: Record<string, number> | null, n: number) => [label, String(n), ...METRICS.map((k) => (m ? m[k]!.toFixed(4) : '-'))];
  report(!!opts.json, result, () => [
    `Run ${result.id} "${result.name}" on ${opts.set}${opts.release ? ` release ${opts.release}` : ''}`,
    ...textTable(['split', 'queries', ...METRICS.map((k) => METRIC_LABELS[k])], [
      ...(result.summary?.bySplit ?? []).map((s) => row(s.split ?? '(none)', s.means, s.queries)),
      row('all', result.summary?.overall.means ?? null, result.summary?.overall.queries ?? 0),
    ], { align: ['left', ...Array<'right'>(METRICS.length + 1).fill('right')], indent: '  ' }),
    ...(result.summary?.overall.withoutAnswers ? [`${plural(result.summary.overall.withoutAnswers, 'query')} without answers left out`] : []),
    ...(result.warnings.length ? [`${plural(result.warnings.length, 'warning')}, e.g. ${result.warnings[0]!.file}:${result.warnings[0]!.line}: ${result.warnings[0]!.reason}`] : []),
  ].join('\n'));
}
