import { z } from 'zod';
import { apiRoute, MIB, readJson } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleQuerySet } from '@/lib/queries/access';
import { getQuery, updateQuery } from '@/lib/queries/edit';
import { MAX_DB_ID } from '@/lib/input';

type Params = { slug: string; name: string; qid: string };
const entityIds = z.array(z.string().trim().min(1).max(200)).max(10_000);

/** One query with its answer and seed entities resolved against the knowledge base, and its revisions. */
export const GET = apiRoute<Params>('kb:browse', async ({ user, params }) => {
  const { kb, set } = await visibleQuerySet(user, params.slug, params.name);
  return getQuery(pool(), kb.id, set.id, params.qid);
});

const changeSchema = z.object({
  text: z.string().trim().min(1, 'must not be empty').max(5000).optional(),
  answers: entityIds.optional(),
  seeds: entityIds.optional(),
  split: z.string().trim().min(1).max(100).nullable().optional(),
  version: z.number().int().min(1).max(MAX_DB_ID),
  reason: z.string().trim().min(1, 'say why the query changes').max(500),
}).strict();

/** Edits a query; `version` is the one the editor loaded (409 when someone saved in between). */
export const PATCH = apiRoute<Params>('queries:manage', async ({ req, user, params }) => {
  const { kb, set } = await visibleQuerySet(user, params.slug, params.name);
  const change = await readJson(req, changeSchema);
  return updateQuery(pool(), kb.id, set.id, params.qid, change, user.id);
}, { bodyLimit: MIB }); // up to 10,000 answer and 10,000 seed ids
