import { apiRoute, json, readJson } from '@/lib/http/api';
import { db, pool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { listEmbeddingSets } from '@/lib/vectors/sets';
import { embeddingImportSchema, importUploadedEmbeddings } from '@/lib/vectors/upload-import';

/** The knowledge base's entity embedding sets (name, dimension, count). */
export const GET = apiRoute<{ slug: string }>('kb:browse', async ({ user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  return { items: await listEmbeddingSets(pool(), kb.id) };
});

/**
 * Imports an uploaded embeddings file (JSONL, or .npy with its ids file) as a named set of the knowledge
 * base's entity vectors, or with `querySet` of that set's query vectors; replaces a set of the same name.
 * Any bad vector is a 400 listing each problem with its line or row and field, and nothing is written.
 */
export const POST = apiRoute<{ slug: string }>('kb:manage', async ({ req, user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const body = await readJson(req, embeddingImportSchema);
  return json(await importUploadedEmbeddings(pool(), kb.id, body, user.id), 201);
});
