/** Memory for hashing a step's set (ids, about 32 bytes each as PostgreSQL counts them: 2M ids). */
export const SET_WORK_MEM = '64MB';

/**
 * Set sizes at which a set test gets its own hashed subplan, eight times apart: a table sized for the next class
 * up costs at most eight times the one needed, and a set past the last is estimated near enough.
 */
export const SET_SIZE_CLASSES = [4_096, 32_768, 262_144] as const;

/**
 * `id IN (SELECT id FROM set)` as a hashed subplan whose table is sized near the set's real size. PostgreSQL sizes
 * the table by the set's estimated rows, and a metapath step's set is estimated at its type's size, since the
 * backwards plan is (a one-time filter skips it, the estimate stays): at MAG size a table for 1,114,720 rows to
 * hold 9,781 took 50 ms to build. A LIMIT no smaller than the set caps the estimate without changing the set, so
 * each size class gets its own subplan and CASE runs, and hashes, only the one that fits. `size` is an SQL
 * expression for the set's row count (evaluated once, as an InitPlan); `set` must be materialized, so that a
 * LIMIT at least its size returns all of it.
 */
export function inSet(id: string, set: string, size: string): string {
  const classes = SET_SIZE_CLASSES.map((n) => `WHEN ${size} <= ${n} THEN ${id} IN (SELECT id FROM ${set} LIMIT ${n})`);
  return `(CASE ${classes.join(' ')} ELSE ${id} IN (SELECT id FROM ${set}) END)`;
}
