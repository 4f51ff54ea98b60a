import { apiRoute, idParam } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { listParticipants, visibleStudy } from '@/lib/studies/admin';

export const GET = apiRoute<{ id: string }>('queries:manage', async ({ user, params }) => {
  const study = await visibleStudy(pool(), user, idParam(params.id, 'study id'));
  return { items: await listParticipants(pool(), study.id) };
});
