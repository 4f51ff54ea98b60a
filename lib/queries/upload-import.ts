import path from 'node:path';
import type { Database } from '../db/transaction';
import { removeUploads, uploadPaths } from '../ingest/uploads';
import { importQueries, type QueryImportSummary, type UnknownIdPolicy } from './import';
import { readQueryInput, type QueryFileKind } from './input';
import type { QueryFormat, QueryOrigin } from './types';

export interface UploadedQueryImport {
  name: string;
  origin: QueryOrigin;
  description?: string;
  license?: string;
  format: QueryFormat;
  unknownIds: UnknownIdPolicy;
  replace: boolean;
  files: { uploadId: string; kind: QueryFileKind }[];
}

/** Imports files the user sent earlier to the upload endpoint (only their own); they are removed once the import has succeeded. */
export async function importUploadedQueries(db: Database, kbId: number, body: UploadedQueryImport, userId: number): Promise<QueryImportSummary> {
  const ids = body.files.map((f) => f.uploadId);
  const paths = await uploadPaths(ids, userId);
  const files = body.files.map((f, i) => ({ path: paths[i]!, name: path.basename(paths[i]!), kind: f.kind }));
  const input = await readQueryInput(body.format, files);
  const summary = await importQueries(db, input.records, {
    kbId, setName: body.name, origin: body.origin, description: body.description, license: body.license,
    splits: input.splits, unknownIds: body.unknownIds, replace: body.replace, userId,
    sourceName: files.map((f) => f.name).join(', '),
  });
  await removeUploads(ids, userId);
  return summary;
}
