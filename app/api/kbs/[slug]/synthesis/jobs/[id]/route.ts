import { apiRoute, idParam } from '@/lib/http/api';
import { db, pool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { getJob } from '@/lib/synthesis/job-store';
import { cancelSynthesisJob } from '@/lib/synthesis/jobs';

type Params = { slug: string; id: string };

/** A synthesis job: its request, status, progress (kept of asked, attempted) and counts per stage. */
export const GET = apiRoute<Params>('queries:manage', async ({ user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  return getJob(pool(), kb.id, idParam(params.id, 'job id'));
});

/** Asks a running job to stop once the items in hand are written (at once when its process is gone); it then shows CANCELLED. */
export const DELETE = apiRoute<Params>('queries:manage', async ({ user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const id = idParam(params.id, 'job id');
  await getJob(pool(), kb.id, id);
  const cancelRequested = await cancelSynthesisJob(pool(), kb.id, id);
  return { ...(await getJob(pool(), kb.id, id)), cancelRequested };
});
