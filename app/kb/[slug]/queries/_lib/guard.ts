import { orNotFound, pathWithQuery, requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import type { SessionUser } from '@/lib/auth/session';
import { pool } from '@/lib/db/client';
import type { KbSummary } from '@/lib/kb/access';
import { getQuerySet, type QuerySetSummary } from '@/lib/queries/sets';

export type SearchParams = Record<string, string | string[] | undefined>;

/**
 * For the pages of one query set: the signed-in user (sign-in returns to `path` with its query), the
 * knowledge base and the set, or the 404 page when the user may not see them.
 */
export async function requirePageQuerySet(path: string, searchParams: SearchParams, slug: string, name: string): Promise<{ user: SessionUser; kb: KbSummary; set: QuerySetSummary }> {
  const user = await requirePageUser(pathWithQuery(path, searchParams), 'kb:browse');
  const kb = await requirePageKb(user, slug);
  const set = await orNotFound(getQuerySet(pool(), kb.id, name));
  return { user, kb, set };
}
