import { apiRoute, json, readJson } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleQuerySet } from '@/lib/queries/access';
import { baselineRequestSchema, runBaseline, startBaseline } from '@/lib/queries/baseline';
import { getRun, runTarget } from '@/lib/queries/runs';

/**
 * Starts a baseline run (BM25 unless `method` says "fulltext") and answers at once with the RUNNING run; it
 * fills in its progress (`done` of `total`) while it ranks, and is DONE or FAILED at the end. Poll GET runs/:id.
 */
export const POST = apiRoute<{ slug: string; name: string }>('queries:manage', async ({ req, user, params }) => {
  const { set } = await visibleQuerySet(user, params.slug, params.name);
  const { release, ...options } = await readJson(req, baselineRequestSchema);
  const target = await runTarget(pool(), set, release);
  const id = await startBaseline(pool(), target, user.id, options);
  // The failure is recorded on the run's row, which is what the page shows.
  void runBaseline(pool(), target, id, user.id, undefined, options).catch(() => undefined);
  return json(await getRun(pool(), set.id, id), 202);
});
