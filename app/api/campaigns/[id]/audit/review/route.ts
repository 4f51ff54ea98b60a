import { apiRoute, idParam } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleCampaign } from '@/lib/authoring/access';
import { auditReviewQueue } from '@/lib/authoring/audit-review';

/** The audit's items with submitted work waiting for review. */
export const GET = apiRoute<{ id: string }>('queries:manage', async ({ user, params }) => {
  const campaign = await visibleCampaign(user, idParam(params.id, 'campaign id'));
  return { items: await auditReviewQueue(pool(), campaign.id) };
});
