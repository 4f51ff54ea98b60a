import type { ImportProgress } from '../../../lib/ingest/importer';

export interface ProgressFigures {
  /** Share of the current measure done: input bytes while reading, documents while building the search index. */
  percent: number;
  rowsPerSecond: number;
  megabytesPerSecond: number;
  /** Seconds left in the measured phase, or null while nothing measurable is under way (index builds, publishing). */
  secondsLeft: number | null;
}

/**
 * The rates and time left an import's progress bar shows. Reading is measured by input bytes (rows vary
 * in size, bytes do not lie), the search index by documents; each rate runs from its phase's start. The
 * phases in between (indexes, statistics, publishing) have no measure of their own, so no time is guessed.
 * Once reading ends the read rates stay as they were, instead of decaying while the indexes are built.
 */
export class ImportRates {
  private readonly started: number;
  private indexStarted: number | null = null;
  private readUntil: number;

  constructor(now = Date.now()) {
    this.started = now;
    this.readUntil = now;
  }

  figures(p: ImportProgress, now = Date.now()): ProgressFigures {
    const reading = p.phase === 'starting' || p.phase === 'entities' || p.phase === 'edges';
    if (reading) this.readUntil = now;
    const seconds = Math.max((this.readUntil - this.started) / 1000, 0.001);
    const rowsPerSecond = p.rowsRead / seconds;
    const megabytesPerSecond = p.bytesDone / 2 ** 20 / seconds;
    if (p.indexTotal) {
      this.indexStarted ??= now;
      const done = p.indexDone ?? 0;
      const indexSeconds = (now - this.indexStarted) / 1000;
      const left = done > 0 && indexSeconds > 0 ? ((p.indexTotal - done) * indexSeconds) / done : null;
      return { percent: share(done, p.indexTotal), rowsPerSecond, megabytesPerSecond, secondsLeft: left };
    }
    const left = reading && p.bytesDone > 0 ? ((p.bytesTotal - p.bytesDone) * seconds) / p.bytesDone : null;
    return { percent: share(p.bytesDone, p.bytesTotal), rowsPerSecond, megabytesPerSecond, secondsLeft: left };
  }
}

function share(done: number, total: number): number {
  return total ? Math.min(100, Math.floor((100 * done) / total)) : 0;
}

/** "42s", "3m05s", "1h02m"; "--" when unknown. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '--';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (s < 3600) return `${Math.floor(s / 60)}m${pad(s % 60)}s`;
  return `${Math.floor(s / 3600)}h${pad(Math.floor((s % 3600) / 60))}m`;
}
