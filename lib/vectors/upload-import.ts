import path from 'node:path';
import { z } from 'zod';
import type { Database } from '../db/transaction';
import { removeUploads, uploadPaths } from '../ingest/uploads';
import { getQuerySet, setNameSchema } from '../queries/sets';
import { importEmbeddings, type EmbeddingImportSummary } from './import';
import { readEmbeddingFile } from './readers';
import { embeddingNameSchema } from './sets';

/** POST embeddings: files sent first to PUT /api/uploads, named by their upload ids. */
export const embeddingImportSchema = z.object({
  name: embeddingNameSchema,
  // The query set whose query vectors these are; without it, the knowledge base's entity vectors.
  querySet: setNameSchema.optional(),
  uploadId: z.string().max(100),
  // .npy only: the ids file, one id per line.
  idsUploadId: z.string().max(100).optional(),
}).strict();

/** Imports the user's uploaded embeddings file (and ids file); the uploads are removed once imported. */
export async function importUploadedEmbeddings(db: Database, kbId: number, body: z.output<typeof embeddingImportSchema>, userId: number): Promise<EmbeddingImportSummary> {
  const querySetId = body.querySet ? (await getQuerySet(db, kbId, body.querySet)).id : null;
  const ids = [body.uploadId, ...(body.idsUploadId ? [body.idsUploadId] : [])];
  const [file, idsFile] = await uploadPaths(ids, userId);
  const named = (p: string) => ({ path: p, name: path.basename(p) });
  const summary = await importEmbeddings(db, readEmbeddingFile(named(file!), idsFile ? named(idsFile) : null), { kbId, querySetId },
    { name: body.name, fileName: path.basename(file!), userId });
  await removeUploads(ids, userId);
  return summary;
}
