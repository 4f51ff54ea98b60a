import { z } from 'zod';
import { apiRoute, readJson } from '@/lib/http/api';
import { db, pool, readPool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { evaluateMetapaths } from '@/lib/kb/metapath';
import { metapathsInputSchema } from '@/lib/kb/metapath-input';

const bodySchema = z.object({
  paths: metapathsInputSchema,
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
  return evaluateMetapaths(readPool(), kb.id, paths, { limit, offset, q, relevance, primary: pool() });
});
