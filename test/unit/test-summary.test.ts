import { describe, expect, it } from 'vitest';
import { summarize } from '../../scripts/test-summary.mjs';

const steps = ['Type check', 'Unit and integration tests', 'Production build', 'End-to-end tests'];

describe('npm test summary', () => {
  it('counts every step as passed when all ran and passed', () => {
    const results = steps.map((name) => ({ name, ok: true, seconds: 1 }));
    const { lines, failed } = summarize(steps, results);
    expect(failed).toBe(0);
    expect(lines.at(-1)).toBe('steps: 4 passed, 0 failed, 0 skipped');
  });

  it('reports the steps after a failure as skipped, not failed', () => {
    const results = [{ name: steps[0]!, ok: true, seconds: 3 }, { name: steps[1]!, ok: false, seconds: 90 }];
    const { lines, failed } = summarize(steps, results);
    expect(failed).toBe(1);
    expect(lines).toEqual([
      'ok   Type check (3s)',
      'FAIL Unit and integration tests (90s)',
      'skip Production build (not run after the failure above)',
      'skip End-to-end tests (not run after the failure above)',
      'steps: 1 passed, 1 failed, 2 skipped',
    ]);
  });
});
