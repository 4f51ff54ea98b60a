import { pool } from '../db/client';
import { getRelease } from './releases';
import type { RunTarget } from './runs';
import type { QuerySetSummary } from './sets';

/** The set, or its release `number` when one is given. */
export async function runTarget(set: QuerySetSummary, release: number | undefined): Promise<RunTarget> {
  return { setId: set.id, kbId: set.kbId, releaseId: release ? (await getRelease(pool(), set.id, release)).id : null };
}
