import { z } from 'zod';
import { apiRoute, idParam, parseWith } from '@/lib/http/api';
import { db, readPool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { directNeighbourhood, MAX_NEIGHBOURS } from '@/lib/kb/neighbourhood';

const querySchema = z.object({ limit: z.coerce.number().int().min(1).max(MAX_NEIGHBOURS).default(150) });

/** Direct neighbours within a budget (?limit=, at most 500), with "+N more" stubs for the rest. */
export const GET = apiRoute<{ slug: string; id: string }>('kb:browse', async ({ req, user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const entityId = idParam(params.id, 'entity id');
  const { limit } = parseWith(querySchema, Object.fromEntries(new URL(req.url).searchParams), 'query');
  return directNeighbourhood(readPool(), kb.id, entityId, limit);
});
