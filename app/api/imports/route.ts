import { z } from 'zod';
import { apiRoute, json, parseWith, readJson } from '@/lib/http/api';
import { db, pool } from '@/lib/db/client';
import { listImportJobs, startImport, startImportSchema } from '@/lib/ingest/import-jobs-view';

const limitSchema = z.coerce.number().int().min(1).max(100).default(20);

/** Recent import jobs the caller may see. */
export const GET = apiRoute('kb:manage', async ({ req, user }) => {
  const limit = parseWith(limitSchema, new URL(req.url).searchParams.get('limit') ?? undefined, 'limit');
  return { jobs: await listImportJobs(pool(), user, limit) };
});

/** Starts an import of uploaded files; answers once the job exists, the import goes on in the background. */
export const POST = apiRoute('kb:manage', async ({ req, user }) => {
  const input = await readJson(req, startImportSchema);
  return json({ jobId: await startImport(pool(), db(), user, input) }, 202);
});
