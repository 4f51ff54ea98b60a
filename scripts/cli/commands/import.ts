import fs from 'node:fs';
import cliProgress from 'cli-progress';
import { pool } from '../../../lib/db/client';
import { importKnowledgeBase, type ImportProgress } from '../../../lib/ingest/importer';
import { embeddedImportRefusal, inputBytes } from '../../../lib/ingest/embedded-ceiling';
import { errorReportTsv, ImportAborted, type ErrorPolicy } from '../../../lib/ingest/issues';
import { openSource, type ImportFormat } from '../../../lib/ingest/readers';
import { recoverAbandonedImports } from '../../../lib/ingest/recovery';
import { withDatabase } from '../database';
import { report } from '../output';
import { formatDuration, ImportRates } from './import-progress';
import { plural } from '../../../lib/format/plural';

export interface ImportCommandOptions {
  kb: string;
  format: ImportFormat;
  name?: string;
  onError: ErrorPolicy;
  maxErrors: number;
  public?: boolean;
  errorReport?: string;
  json?: boolean;
}

/** A progress bar on a terminal: share done, rows and megabytes per second, time left, errors so far. */
function progressBar(enabled: boolean) {
  if (!enabled) return { update: (_p: ImportProgress) => {}, stop: () => {} };
  const bar = new cliProgress.SingleBar(
    { format: '{phase} [{bar}] {percentage}% | {rows} rows | {rate} rows/s | {mbps} MB/s | {left} left | {errors} errors', hideCursor: true, stream: process.stderr },
    cliProgress.Presets.shades_classic,
  );
  const rates = new ImportRates();
  bar.start(100, 0, { phase: 'starting'.padEnd(12), rows: 0, rate: 0, mbps: '0.0', left: '--', errors: 0 });
  return {
    update(p: ImportProgress) {
      const f = rates.figures(p);
      bar.update(f.percent, {
        phase: p.phase.padEnd(12),
        rows: p.rowsRead.toLocaleString('en'),
        rate: Math.round(f.rowsPerSecond).toLocaleString('en'),
        mbps: f.megabytesPerSecond.toFixed(1),
        left: formatDuration(f.secondsLeft),
        errors: p.errors,
      });
    },
    stop: () => bar.stop(),
  };
}

function writeErrorReport(file: string, errors: { file: string; line: number; reason: string }[]): void {
  fs.writeFileSync(file, errorReportTsv(errors));
}

export async function run(files: string[], opts: ImportCommandOptions): Promise<void> {
  const missing = files.filter((f) => !fs.existsSync(f));
  if (missing.length) throw new Error(`No such file: ${missing.join(', ')}`);
  // Without DATABASE_URL the import goes to the embedded database: refuse too large an input before starting it.
  const refusal = process.env.DATABASE_URL ? null : embeddedImportRefusal(inputBytes(files));
  if (refusal) throw new Error(refusal);
  const source = openSource(opts.format, files);
  const bar = progressBar(!opts.json && !!process.stderr.isTTY);
  try {
    const summary = await withDatabase(async () => {
      await recoverAbandonedImports(pool());
      return importKnowledgeBase(pool(), source, {
        slug: opts.kb,
        name: opts.name,
        format: opts.format,
        files: files.map((f) => fs.realpathSync(f)),
        onError: opts.onError,
        maxErrors: opts.maxErrors,
        visibility: opts.public ? 'PUBLIC' : undefined,
        replace: true,
        onProgress: bar.update,
      });
    }, { quiet: opts.json });
    bar.stop();
    if (opts.errorReport) writeErrorReport(opts.errorReport, summary.errors);
    report(!!opts.json, summary, () => [
      `Imported ${summary.slug}: ${plural(summary.entities, 'entity')}, ${plural(summary.edges, 'edge')} in ${summary.seconds.toFixed(1)} s (${summary.method})`,
      `Entity types: ${Object.entries(summary.entityTypes).map(([t, n]) => `${t} ${n}`).join(', ')}`,
      `Relations: ${Object.entries(summary.relations).map(([t, n]) => `${t} ${n}`).join(', ')}`,
      ...(summary.duplicateEdges ? [`${plural(summary.duplicateEdges, 'duplicate edge')} merged`] : []),
      ...(summary.errors.length ? [`Skipped ${plural(summary.errors.length, 'bad row')}${opts.errorReport ? ` (listed in ${opts.errorReport})` : ''}:`, ...summary.errors.slice(0, 10).map((e) => `  ${e.file}:${e.line}: ${e.reason}`)] : []),
    ].join('\n'));
  } catch (err) {
    bar.stop();
    if (err instanceof ImportAborted) {
      if (opts.errorReport) writeErrorReport(opts.errorReport, err.issues);
      const shown = err.issues.slice(-10).map((i) => `  ${i}`);
      throw new Error([err.message, 'Nothing was imported.', ...(err.issues.length > 1 ? ['Problems found:', ...shown] : [])].join('\n'));
    }
    throw err;
  }
}
