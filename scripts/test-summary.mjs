// The closing lines of `npm test`: one line a step, then the count. Steps after a failure never ran,
// so they are reported as skipped, not as failed.

/**
 * @param {string[]} stepNames every step, in order
 * @param {{ name: string, ok: boolean, seconds: number }[]} results the steps that ran
 * @returns {{ lines: string[], failed: number }}
 */
export function summarize(stepNames, results) {
  const lines = results.map((r) => `${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.seconds}s)`);
  const skipped = stepNames.slice(results.length);
  for (const name of skipped) lines.push(`skip ${name} (not run after the failure above)`);
  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  lines.push(`steps: ${passed} passed, ${failed} failed, ${skipped.length} skipped`);
  return { lines, failed };
}
