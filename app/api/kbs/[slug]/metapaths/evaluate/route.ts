import { z } from 'zod';
import { apiRoute, readJson } from '@/lib/http/api';
import { db, pool, readPool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { evaluateMetapaths, WALK_EDGE_BUDGET } from '@/lib/kb/metapath';
import { metapathsInputSchema } from '@/lib/kb/metapath-input';

const bodySchema = z.object({
  paths: metapathsInputSchema,
  q: z.string().trim().max(500).optional(),
  relevance: z.string().trim().max(2000).optional(),
  limit: z.number().int().min(0).max(200).default(25),
  offset: z.number().int().min(0).max(100_000).default(0),
  /** Count every set exactly, however many edges that reads (seconds for a large hub's 2-hop metapath). */
  exact: z.boolean().default(false),
});

/**
 * Evaluates one metapath, or several meeting at one entity type (their intersection): distinct entities
 * reached per branch and step, and a page of the final set, optionally filtered and ranked by `q`. Unless
 * `exact`, each step's walk is bounded (WALK_EDGE_BUDGET edges) and a count it cut short comes back as a lower
 * bound (`atLeast`, `totalAtLeast`). A read; POST because the query is a structured body.
 */
export const POST = apiRoute<{ slug: string }>('kb:browse', async ({ req, user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const { paths, q, relevance, limit, offset, exact } = await readJson(req, bodySchema);
  return evaluateMetapaths(readPool(), kb.id, paths, { limit, offset, q, relevance, primary: pool(), walkBudget: exact ? undefined : WALK_EDGE_BUDGET });
});
