import { apiRoute, idParam } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleCampaign } from '@/lib/authoring/access';
import { auditItemReview } from '@/lib/authoring/audit-review';

/** One item's submitted audits side by side: verdicts on every current answer, added answers, flags. */
export const GET = apiRoute<{ id: string; item: string }>('queries:manage', async ({ user, params }) => {
  const campaign = await visibleCampaign(user, idParam(params.id, 'campaign id'));
  return auditItemReview(pool(), campaign.id, idParam(params.item, 'item number'));
});
