import { z } from 'zod';
import type { Queryable } from '../db/transaction';
import { idTextSchema, type TextProblem } from '../input';
import { GRAPH_LAYOUTS } from './graph-layout';
import { MAX_ELEMENTS, MAX_HOPS } from './neighbourhood';
import { MAX_PATH_HOPS } from './paths';

/*
 * The query strings of the explorer's API routes and of the pages that show them. A page validates its
 * address with its route's schema (extended with what only the page keeps, like the layout), so a value the
 * API refuses is refused on the page at once, in the same words.
 */

const relationNames = (max: number) => z.array(z.string().trim().min(1, 'must not be empty').max(200)).max(max);

/** GET /api/kbs/:slug/graph */
export const graphQuerySchema = z.object({
  entity: idTextSchema,
  hops: z.coerce.number().int().min(1).max(MAX_HOPS).default(1),
  rel: relationNames(100).default([]),
  dir: z.enum(['both', 'out', 'in']).default('both'),
  budget: z.coerce.number().int().min(1).max(MAX_ELEMENTS).default(MAX_ELEMENTS),
});

/** The graph page: no entity yet is the hub list; the layout, selection and expanded nodes are the page's own. */
export const graphPageSchema = graphQuerySchema.extend({
  entity: idTextSchema.optional(),
  layout: z.enum(GRAPH_LAYOUTS).default('concentric'),
  selected: idTextSchema.optional(),
  expand: z.array(idTextSchema).max(100).default([]),
  /** A saved view to open (see lib/kb/saved-views). */
  view: idTextSchema.optional(),
});

/** GET /api/kbs/:slug/paths */
export const pathsQuerySchema = z.object({
  from: idTextSchema,
  to: idTextSchema,
  hops: z.coerce.number().int().min(1).max(MAX_PATH_HOPS).default(MAX_PATH_HOPS),
  rel: relationNames(50).default([]),
});

/** The paths page: either end may still be unchosen. */
export const pathsPageSchema = pathsQuerySchema.extend({ from: idTextSchema.optional(), to: idTextSchema.optional() });

/** GET /api/kbs/:slug/search */
export const searchQuerySchema = z.object({
  q: z.string().trim().min(1, 'must not be empty').max(500),
  type: z.array(z.string().max(200)).max(100).default([]),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(10_000).default(0),
});

/** The search page pages by number, 20 hits a page, as far as the API's offset reaches. */
export const SEARCH_PAGE_SIZE = 20;
export const searchPageSchema = searchQuerySchema.pick({ type: true }).extend({
  q: z.string().max(500).optional(),
  page: z.coerce.number().int().min(1).max(10_000 / SEARCH_PAGE_SIZE + 1).default(1),
});

/** A metapath step as the metapaths page writes it: `out~relation~type` or `in~relation~type`. */
const metapathStepText = z.string().regex(/^(out|in)~.+~.+$/, 'must read out~RELATION~TYPE or in~RELATION~TYPE');

/** The metapaths page: where each of the two branches starts (`start` an entity, or `type`), their steps, a filter, a page. */
export const metapathsPageSchema = z.object({
  start: idTextSchema.optional(),
  type: z.string().trim().min(1, 'must not be empty').max(200).optional(),
  step: z.array(metapathStepText).max(8).default([]),
  start2: idTextSchema.optional(),
  type2: z.string().trim().min(1, 'must not be empty').max(200).optional(),
  step2: z.array(metapathStepText).max(8).default([]),
  q: z.string().trim().max(500).optional(),
  page: z.coerce.number().int().min(1).max(4_000).default(1),
  /** Count every step exactly instead of within the walk's edge bound. */
  exact: z.literal('1').optional(),
});

/** The entity types and relations of a knowledge base, by name. */
export async function kbVocabulary(db: Queryable, kbId: number): Promise<{ types: Set<string>; relations: Set<string> }> {
  const [types, relations] = await Promise.all([
    db.query<{ name: string }>('SELECT name FROM node_type WHERE kb_id = $1', [kbId]),
    db.query<{ name: string }>('SELECT name FROM edge_type WHERE kb_id = $1', [kbId]),
  ]);
  return { types: new Set(types.rows.map((r) => r.name)), relations: new Set(relations.rows.map((r) => r.name)) };
}

/** Names the knowledge base does not have, as problems of their parameter: `rel: unknown relation "x"`. */
export function unknownNames(field: string, names: readonly string[], known: ReadonlySet<string>, kind: string): TextProblem[] {
  return names.filter((n) => !known.has(n)).map((n) => ({ field, message: `unknown ${kind} ${JSON.stringify(n)}` }));
}

/** The first of the ids the knowledge base holds no entity with, or null when it holds them all. */
export async function firstMissingEntity(db: Queryable, kbId: number, ids: readonly number[]): Promise<number | null> {
  if (!ids.length) return null;
  const { rows } = await db.query<{ id: number }>('SELECT id FROM entity WHERE kb_id = $1 AND id = ANY($2::int[])', [kbId, [...ids]]);
  const found = new Set(rows.map((r) => r.id));
  return ids.find((id) => !found.has(id)) ?? null;
}

/** What the pages say about an entity id that names nothing, as the entity API does. */
export const noEntity = (id: number) => `No entity ${id} in this knowledge base`;
