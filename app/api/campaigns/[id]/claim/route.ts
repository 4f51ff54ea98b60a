import { apiRoute, idParam } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleCampaign } from '@/lib/authoring/access';
import { claimNext } from '@/lib/authoring/assignments';

/** The caller's seed to work on: their live lease, or a new one; `assignment: null` when none is left. */
export const POST = apiRoute<{ id: string }>('campaigns:annotate', async ({ user, params }) => {
  const campaign = await visibleCampaign(user, idParam(params.id, 'campaign id'));
  return { assignment: await claimNext(pool(), campaign.id, user.id) };
});
