import { z } from 'zod';
import { apiRoute, json, readJson } from '@/lib/http/api';
import { db, pool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { importUploadedQueries } from '@/lib/queries/upload-import';
import { listQuerySets, setNameSchema } from '@/lib/queries/sets';
import { QUERY_FORMATS, QUERY_ORIGINS } from '@/lib/queries/types';

/** The knowledge base's query sets. */
export const GET = apiRoute<{ slug: string }>('kb:browse', async ({ user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  return { items: await listQuerySets(pool(), kb.id) };
});

const importSchema = z.object({
  name: setNameSchema,
  origin: z.enum(QUERY_ORIGINS).default('imported'),
  description: z.string().max(5000).optional(),
  license: z.string().max(200).optional(),
  format: z.enum(QUERY_FORMATS),
  unknownIds: z.enum(['reject', 'keep']).default('reject'),
  replace: z.boolean().default(false),
  // Files sent first to PUT /api/uploads; `kind` says what each holds.
  files: z.array(z.object({ uploadId: z.string().max(100), kind: z.enum(['queries', 'split', 'topics', 'qrels']) }).strict()).min(1).max(20),
}).strict();

/** Imports uploaded files as a query set: all checked first, then written in one transaction, or nothing. */
export const POST = apiRoute<{ slug: string }>('queries:manage', async ({ req, user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const body = await readJson(req, importSchema);
  return json(await importUploadedQueries(pool(), kb.id, body, user.id), 201);
});
