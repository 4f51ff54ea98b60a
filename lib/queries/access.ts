import type { SessionUser } from '../auth/session';
import { db, pool } from '../db/client';
import { getVisibleKb, type KbSummary } from '../kb/access';
import { getQuerySet, type QuerySetSummary } from './sets';

/** A query set as its knowledge base's visibility allows: 404 for a set or knowledge base the user may not see. */
export async function visibleQuerySet(user: SessionUser, slug: string, name: string): Promise<{ kb: KbSummary; set: QuerySetSummary }> {
  const kb = await getVisibleKb(db(), user, slug);
  return { kb, set: await getQuerySet(pool(), kb.id, name) };
}
