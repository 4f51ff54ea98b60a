import { z } from 'zod';
import { apiRoute, idParam, readJson } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { can } from '@/lib/auth/roles';
import { visibleCampaign } from '@/lib/authoring/access';
import { campaignDetail, campaignStatusSchema, setCampaignStatus } from '@/lib/authoring/campaign-detail';

/** The campaign, whether the caller annotates in it or manages it, and the caller's assignments. */
export const GET = apiRoute<{ id: string }>('kb:browse', async ({ user, params }) => {
  const campaign = await visibleCampaign(user, idParam(params.id, 'campaign id'));
  return { ...(await campaignDetail(pool(), campaign.id, user.id)), canManage: can(user.role, 'queries:manage') };
});

const patchSchema = z.object({ status: campaignStatusSchema }).strict();

/** Opens, closes or pauses (draft) the campaign. */
export const PATCH = apiRoute<{ id: string }>('queries:manage', async ({ req, user, params }) => {
  const campaign = await visibleCampaign(user, idParam(params.id, 'campaign id'));
  const { status } = await readJson(req, patchSchema);
  await setCampaignStatus(pool(), campaign.id, status, user.id);
  return { status };
});
