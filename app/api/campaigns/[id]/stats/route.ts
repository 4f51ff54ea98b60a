import { apiRoute, idParam } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleCampaign } from '@/lib/authoring/access';
import { campaignStats } from '@/lib/authoring/stats';

/** Progress per annotator and in total, time per query, and agreement of the answer sets. */
export const GET = apiRoute<{ id: string }>('queries:manage', async ({ user, params }) => {
  const campaign = await visibleCampaign(user, idParam(params.id, 'campaign id'));
  return campaignStats(pool(), campaign.id);
});
