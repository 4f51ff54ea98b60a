import { z } from 'zod';
import { apiRoute, readJson } from '@/lib/http/api';
import { db, pool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { evaluateMetapaths, MAX_STEPS } from '@/lib/kb/metapath';

const name = z.string().trim().min(1, 'must not be empty').max(200);
const metapath = z.object({
  start: z.union([
    z.object({ entity: z.number().int().positive() }).strict(),
    z.object({ type: name }).strict(),
  ], { error: 'must be { entity: id } or { type: name }' }),
  steps: z.array(z.object({ relation: name, direction: z.enum(['out', 'in']), targetType: name }).strict()).min(1).max(MAX_STEPS),
});
const bodySchema = z.object({
  paths: z.array(metapath).min(1).max(3),
  q: z.string().trim().max(500).optional(),
  relevance: z.string().trim().max(2000).optional(),
  limit: z.number().int().min(0).max(200).default(25),
  offset: z.number().int().min(0).max(100_000).default(0),
});

/**
 * Evaluates one metapath, or several meeting at one entity type (their intersection): distinct entities
 * reached per branch and step, and a page of the final set, optionally filtered and ranked by `q`.
 * A read; POST because the query is a structured body.
 */
export const POST = apiRoute<{ slug: string }>('kb:browse', async ({ req, user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const { paths, q, relevance, limit, offset } = await readJson(req, bodySchema);
  return evaluateMetapaths(pool(), kb.id, paths, { limit, offset, q, relevance });
});
