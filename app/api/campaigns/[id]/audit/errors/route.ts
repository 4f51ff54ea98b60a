import { apiRoute, idParam } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleCampaign } from '@/lib/authoring/access';
import { auditErrors } from '@/lib/authoring/audit-errors';

/** The error rate the audit found, in total, per split and per origin, with 95% Wilson intervals. */
export const GET = apiRoute<{ id: string }>('queries:manage', async ({ user, params }) => {
  const campaign = await visibleCampaign(user, idParam(params.id, 'campaign id'));
  return auditErrors(pool(), campaign.id);
});
