import { z } from 'zod';
import { apiRoute, parseWith } from '@/lib/http/api';
import { db, readPool } from '@/lib/db/client';
import { notFound } from '@/lib/errors';
import { getVisibleKb } from '@/lib/kb/access';
import { lookupEntity } from '@/lib/kb/lookup';

const querySchema = z.object({ id: z.string().trim().min(1, 'must not be empty').max(500) });

/** The entity ?id= names: `#123` internal id, `123` internal id else external id, anything else external id. */
export const GET = apiRoute<{ slug: string }>('kb:browse', async ({ req, user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const { id } = parseWith(querySchema, Object.fromEntries(new URL(req.url).searchParams), 'query');
  const entity = await lookupEntity(readPool(), kb.id, id);
  if (!entity) throw notFound(`No entity with id or external id "${id}" in this knowledge base`);
  return entity;
});
