import { apiRoute, idParam, json } from '@/lib/http/api';
import { db, pool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { getJob } from '@/lib/synthesis/job-store';
import { claimForResume, runSynthesisJob } from '@/lib/synthesis/jobs';

type Params = { slug: string; id: string };

/**
 * Resumes a cancelled, failed or abandoned job in this server's process: it continues at the positions it has not
 * written, keeping every query it made. 409 when it is still running elsewhere or has succeeded.
 */
export const POST = apiRoute<Params>('queries:manage', async ({ user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const id = idParam(params.id, 'job id');
  await claimForResume(pool(), kb.id, id);
  void runSynthesisJob(pool(), id).catch(() => undefined);
  return json(await getJob(pool(), kb.id, id), 202);
});
