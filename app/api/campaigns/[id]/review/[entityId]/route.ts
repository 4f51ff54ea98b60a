import { apiRoute, idParam } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleCampaign } from '@/lib/authoring/access';
import { seedReview } from '@/lib/authoring/review';

/** One seed's submitted work side by side, with the union of the answers to adjudicate. */
export const GET = apiRoute<{ id: string; entityId: string }>('queries:manage', async ({ user, params }) => {
  const campaign = await visibleCampaign(user, idParam(params.id, 'campaign id'));
  return seedReview(pool(), campaign.id, idParam(params.entityId, 'entity id'));
});
