import { describe, expect, it } from 'vitest';
import type { ImportProgress } from '../../lib/ingest/importer';
import { formatDuration, ImportRates } from '../../scripts/cli/commands/import-progress';

const MB = 2 ** 20;
const at = (phase: ImportProgress['phase'], rowsRead: number, bytesDone: number, extra: Partial<ImportProgress> = {}): ImportProgress =>
  ({ jobId: 1, phase, rowsRead, entities: 0, edges: 0, errors: 0, bytesDone, bytesTotal: 100 * MB, ...extra });

describe('import progress figures', () => {
  it('give rows and megabytes per second and the time left from the bytes read', () => {
    const rates = new ImportRates(0);
    const f = rates.figures(at('edges', 50_000, 25 * MB), 10_000);
    expect(f.percent).toBe(25);
    expect(f.rowsPerSecond).toBe(5_000);
    expect(f.megabytesPerSecond).toBeCloseTo(2.5);
    // 75 MB left at 2.5 MB/s.
    expect(f.secondsLeft).toBeCloseTo(30);
  });

  it('keep the read rates once reading ends, and guess no time while indexes are built', () => {
    const rates = new ImportRates(0);
    rates.figures(at('edges', 100_000, 100 * MB), 20_000);
    const f = rates.figures(at('indexes', 100_000, 100 * MB), 60_000);
    expect(f.rowsPerSecond).toBe(5_000);
    expect(f.megabytesPerSecond).toBeCloseTo(5);
    expect(f.secondsLeft).toBeNull();
  });

  it('measure the search index by documents, from the phase start', () => {
    const rates = new ImportRates(0);
    rates.figures(at('search-index', 10, 100 * MB, { indexDone: 0, indexTotal: 1000 }), 100_000);
    const f = rates.figures(at('search-index', 10, 100 * MB, { indexDone: 250, indexTotal: 1000 }), 105_000);
    expect(f.percent).toBe(25);
    expect(f.secondsLeft).toBeCloseTo(15);
  });

  it('format the time left for people', () => {
    expect(formatDuration(null)).toBe('--');
    expect(formatDuration(42.4)).toBe('42s');
    expect(formatDuration(185)).toBe('3m05s');
    expect(formatDuration(3720)).toBe('1h02m');
  });
});
