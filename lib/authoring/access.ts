import type { SessionUser } from '../auth/session';
import { pool } from '../db/client';
import { notFound } from '../errors';
import { kbVisibleSql } from '../kb/access';

// One statement each: the row and the visibility of its knowledge base, so a private one never shows through.
const CAMPAIGN_VISIBLE = `campaign c JOIN knowledge_base k ON k.id = c.kb_id WHERE ${kbVisibleSql('$2', '$3')}`;
const ASSIGNMENT_VISIBLE = `assignment a JOIN campaign c ON c.id = a.campaign_id JOIN knowledge_base k ON k.id = c.kb_id WHERE ${kbVisibleSql('$2', '$3')}`;

/** A campaign whose knowledge base the user can see; 404 otherwise, as for private knowledge bases. */
export async function visibleCampaign(user: SessionUser, campaignId: number): Promise<{ id: number; kbId: number }> {
  const { rows: [c] } = await pool().query<{ id: number; kbId: number }>(
    `SELECT c.id, c.kb_id AS "kbId" FROM ${CAMPAIGN_VISIBLE} AND c.id = $1`, [campaignId, user.role === 'ADMIN', user.id]);
  if (!c) throw notFound(`No campaign ${campaignId}`);
  return c;
}

/** The user's own assignment, on a knowledge base they can still see; 404 otherwise. */
export async function ownAssignment(user: SessionUser, assignmentId: number): Promise<{ id: number; campaignId: number }> {
  const { rows: [a] } = await pool().query<{ id: number; campaignId: number }>(
    `SELECT a.id, a.campaign_id AS "campaignId" FROM ${ASSIGNMENT_VISIBLE} AND a.id = $1 AND a.annotator_id = $3`,
    [assignmentId, user.role === 'ADMIN', user.id]);
  if (!a) throw notFound(`No assignment ${assignmentId} of yours`);
  return a;
}

/** Any assignment of a campaign the user can see (for reviewers); 404 otherwise. */
export async function visibleAssignment(user: SessionUser, assignmentId: number): Promise<{ id: number; campaignId: number }> {
  const { rows: [a] } = await pool().query<{ id: number; campaignId: number }>(
    `SELECT a.id, a.campaign_id AS "campaignId" FROM ${ASSIGNMENT_VISIBLE} AND a.id = $1`,
    [assignmentId, user.role === 'ADMIN', user.id]);
  if (!a) throw notFound(`No assignment ${assignmentId}`);
  return a;
}
