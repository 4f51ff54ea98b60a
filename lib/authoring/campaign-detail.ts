import { z } from 'zod';
import { notFound } from '../errors';
import { auditSql, inTransaction, type Database, type Queryable } from '../db/transaction';
import type { CampaignKind } from './campaigns';

export interface CampaignDetail {
  id: number;
  name: string;
  status: 'DRAFT' | 'OPEN' | 'CLOSED';
  guidelines: string;
  annotatorsPerSeed: number;
  leaseMinutes: number;
  leakPolicy: 'warn' | 'block';
  /** Warn when BM25 ranks the seed or an answer within its top N; null: no target. */
  bm25Target: number | null;
  querySet: string | null;
  /** A validation campaign's: the set whose queries it validates (null once they are gone); null for authoring. */
  validates: string | null;
  kind: CampaignKind;
  /** An audit's release of `querySet`; null when it audits the live set (or is no audit). */
  auditRelease: number | null;
  kbSlug: string;
  seeds: number;
  createdAt: string;
}

/** One of the user's assignments: its seed, or in an audit its query ("Query 12", type "query"). */
export interface OwnAssignment {
  assignmentId: number;
  entityId: number;
  externalId: string;
  name: string;
  type: string;
  status: string;
  reviewNote: string | null;
  leaseExpiresAt: string;
  submittedAt: string | null;
}

/** A campaign, whether the user annotates in it, and their assignments (newest first). */
export async function campaignDetail(db: Queryable, campaignId: number, userId: number): Promise<{ campaign: CampaignDetail; isAnnotator: boolean; mine: OwnAssignment[] }> {
  const { rows: [campaign] } = await db.query<CampaignDetail & { isAnnotator: boolean }>(
    `SELECT c.id, c.name, c.status, c.guidelines, c.annotators_per_seed AS "annotatorsPerSeed", c.lease_minutes AS "leaseMinutes",
            c.leak_policy AS "leakPolicy", c.bm25_target AS "bm25Target", q.name AS "querySet", k.slug AS "kbSlug",
            (SELECT qs.name FROM campaign_seed s JOIN query sq ON sq.id = s.query_id JOIN query_set qs ON qs.id = sq.set_id
              WHERE s.campaign_id = c.id AND c.kind = 'validation' ORDER BY s.position LIMIT 1) AS validates, c.created_at AS "createdAt",
            c.kind, c.audit_release AS "auditRelease",
            (SELECT count(*)::int FROM campaign_seed s WHERE s.campaign_id = c.id) AS seeds,
            EXISTS (SELECT 1 FROM campaign_annotator m WHERE m.campaign_id = c.id AND m.user_id = $2) AS "isAnnotator"
       FROM campaign c JOIN knowledge_base k ON k.id = c.kb_id LEFT JOIN query_set q ON q.id = c.query_set_id
      WHERE c.id = $1`, [campaignId, userId]);
  if (!campaign) throw notFound(`No campaign ${campaignId}`);
  const { rows: mine } = await db.query<OwnAssignment>(
    `SELECT a.id AS "assignmentId", a.entity_id AS "entityId", coalesce(e.external_id, i.external_id) AS "externalId",
            coalesce(e.name, 'Query ' || i.external_id) AS name, coalesce(t.name, 'query') AS type,
            CASE WHEN a.status = 'ACTIVE' AND a.lease_expires_at < now() THEN 'EXPIRED' ELSE a.status::text END AS status,
            a.review_note AS "reviewNote", a.lease_expires_at AS "leaseExpiresAt", a.submitted_at AS "submittedAt"
       FROM assignment a JOIN campaign c ON c.id = a.campaign_id
       LEFT JOIN entity e ON e.kb_id = c.kb_id AND e.id = a.entity_id LEFT JOIN node_type t ON t.id = e.type_id
       LEFT JOIN audit_item i ON i.campaign_id = a.campaign_id AND i.unit = a.entity_id
      WHERE a.campaign_id = $1 AND a.annotator_id = $2 AND (e.id IS NOT NULL OR i.unit IS NOT NULL) ORDER BY a.id DESC`, [campaignId, userId]);
  const { isAnnotator, ...fields } = campaign;
  return { campaign: fields, isAnnotator, mine };
}

export const campaignStatusSchema = z.enum(['DRAFT', 'OPEN', 'CLOSED']);

/** Opens a campaign for claims, or closes it (claims refused; work in progress can still be saved and reviewed). */
export async function setCampaignStatus(db: Database, campaignId: number, status: z.infer<typeof campaignStatusSchema>, userId: number): Promise<void> {
  await inTransaction(db, async (client) => {
    const { rows: [c] } = await client.query<{ kb_id: number }>(
      'UPDATE campaign SET status = $2, updated_at = now() WHERE id = $1 RETURNING kb_id', [campaignId, status]);
    if (!c) throw notFound(`No campaign ${campaignId}`);
    await auditSql(client, { userId, action: 'campaign.status', targetType: 'campaign', targetId: campaignId, kbId: c.kb_id, details: { status } });
  });
}

export interface AnnotatorCandidate {
  id: number;
  email: string;
  name: string | null;
  role: string;
}

/** The people who can annotate: active annotators, curators and admins. */
export async function annotatorCandidates(db: Queryable): Promise<AnnotatorCandidate[]> {
  const { rows } = await db.query<AnnotatorCandidate>(
    `SELECT id, email, name, role FROM app_user WHERE NOT disabled AND role IN ('ANNOTATOR', 'CURATOR', 'ADMIN') ORDER BY role, email`);
  return rows;
}
