import { z } from 'zod';
import { apiRoute, idParam, parseWith } from '@/lib/http/api';
import { db, readPool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { listNeighbours } from '@/lib/kb/neighbours';

const querySchema = z.object({
  relation: z.string().trim().min(1, 'must name a relation (name or id)').max(500),
  direction: z.enum(['out', 'in']),
  sort: z.enum(['name', 'degree']).default('name'),
  order: z.enum(['asc', 'desc']).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  cursor: z.string().max(2000).optional(),
});

/**
 * One page of an entity's neighbours in one relation and direction:
 * ?relation= (name, or #id for an edge type id) &direction=out|in &sort=name|degree &order=asc|desc
 * (default: name asc, degree desc) &limit= (1-200, default 20) &offset= or &cursor= (nextCursor of the previous page).
 */
export const GET = apiRoute<{ slug: string; id: string }>('kb:browse', async ({ req, user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const entityId = idParam(params.id, 'entity id');
  const q = parseWith(querySchema, Object.fromEntries(new URL(req.url).searchParams), 'query');
  const relationId = /^#\d{1,9}$/.test(q.relation) ? Number(q.relation.slice(1)) : null;
  return listNeighbours(readPool(), kb.id, entityId, {
    relation: relationId ?? q.relation,
    direction: q.direction,
    sort: q.sort,
    order: q.order ?? (q.sort === 'degree' ? 'desc' : 'asc'),
    limit: q.limit,
    offset: q.offset,
    cursor: q.cursor,
  });
});
