import { apiRoute, idParam } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleCampaign } from '@/lib/authoring/access';
import { reviewQueue } from '@/lib/authoring/review';

/** Seeds with submitted work waiting for review. */
export const GET = apiRoute<{ id: string }>('queries:manage', async ({ user, params }) => {
  const campaign = await visibleCampaign(user, idParam(params.id, 'campaign id'));
  return { items: await reviewQueue(pool(), campaign.id) };
});
