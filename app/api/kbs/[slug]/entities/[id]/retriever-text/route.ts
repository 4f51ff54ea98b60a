import { z } from 'zod';
import { apiRoute, idParam, parseWith } from '@/lib/http/api';
import { db, readPool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { DEFAULT_MAX_PER_RELATION, retrieverText } from '@/lib/kb/retriever-text';

const querySchema = z.object({ max: z.coerce.number().int().min(0).max(1000).default(DEFAULT_MAX_PER_RELATION) });

/** The flattened text a retriever sees: document plus neighbours per relation (?max= names per relation, default 20). */
export const GET = apiRoute<{ slug: string; id: string }>('kb:browse', async ({ req, user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const entityId = idParam(params.id, 'entity id');
  const { max } = parseWith(querySchema, Object.fromEntries(new URL(req.url).searchParams), 'query');
  return { text: await retrieverText(readPool(), kb.id, entityId, { maxPerRelation: max }) };
});
