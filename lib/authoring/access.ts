import type { SessionUser } from '../auth/session';
import { db, pool } from '../db/client';
import { AppError, notFound } from '../errors';
import { getVisibleKb } from '../kb/access';

/** A campaign whose knowledge base the user can see; 404 otherwise, as for private knowledge bases. */
export async function visibleCampaign(user: SessionUser, campaignId: number): Promise<{ id: number; kbId: number }> {
  const { rows: [c] } = await pool().query<{ id: number; slug: string }>(
    'SELECT c.id, k.slug FROM campaign c JOIN knowledge_base k ON k.id = c.kb_id WHERE c.id = $1', [campaignId]);
  if (!c) throw notFound(`No campaign ${campaignId}`);
  // The knowledge base's own 404 would name its slug; a private one must not show through.
  const kb = await getVisibleKb(db(), user, c.slug).catch((err: unknown) => {
    throw err instanceof AppError && err.status === 404 ? notFound(`No campaign ${campaignId}`) : err;
  });
  return { id: c.id, kbId: kb.id };
}

/** The user's own assignment, on a knowledge base they can still see; 404 otherwise. */
export async function ownAssignment(user: SessionUser, assignmentId: number): Promise<{ id: number; campaignId: number }> {
  const { rows: [a] } = await pool().query<{ id: number; campaign_id: number }>(
    'SELECT id, campaign_id FROM assignment WHERE id = $1 AND annotator_id = $2', [assignmentId, user.id]);
  if (!a) throw notFound(`No assignment ${assignmentId} of yours`);
  await visibleCampaign(user, a.campaign_id);
  return { id: a.id, campaignId: a.campaign_id };
}

/** Any assignment of a campaign the user can see (for reviewers); 404 otherwise. */
export async function visibleAssignment(user: SessionUser, assignmentId: number): Promise<{ id: number; campaignId: number }> {
  const { rows: [a] } = await pool().query<{ id: number; campaign_id: number }>('SELECT id, campaign_id FROM assignment WHERE id = $1', [assignmentId]);
  if (!a) throw notFound(`No assignment ${assignmentId}`);
  await visibleCampaign(user, a.campaign_id);
  return { id: a.id, campaignId: a.campaign_id };
}
