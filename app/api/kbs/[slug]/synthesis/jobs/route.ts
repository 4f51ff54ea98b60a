import { apiRoute, json, readJson } from '@/lib/http/api';
import { db, pool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { listJobs } from '@/lib/synthesis/job-store';
import { runSynthesisJob, startSynthesisJob } from '@/lib/synthesis/jobs';
import { jobSpecSchema } from '@/lib/synthesis/spec';

/** The knowledge base's synthesis jobs, newest first, with their progress. */
export const GET = apiRoute<{ slug: string }>('queries:manage', async ({ user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  return { items: await listJobs(pool(), kb.id) };
});

/**
 * Starts a synthesis job into a new or synthesized query set and answers at once with its id; the job runs in
 * this server's process (poll GET jobs/:id). Unknown templates, types and unfit sets are 400s naming them.
 */
export const POST = apiRoute<{ slug: string }>('queries:manage', async ({ req, user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const spec = await readJson(req, jobSpecSchema);
  const id = await startSynthesisJob(pool(), kb.id, spec, user.id);
  // How it ends is recorded on the job's row, which is what the page shows.
  void runSynthesisJob(pool(), id).catch(() => undefined);
  return json({ id }, 201);
});
