import type { Queryable } from '../db/transaction';

export interface CampaignSummary {
  id: number;
  name: string;
  status: 'DRAFT' | 'OPEN' | 'CLOSED';
  annotatorsPerSeed: number;
  querySet: string | null;
  seeds: number;
  annotators: number;
  active: number;
  submitted: number;
  approved: number;
  skipped: number;
}

/** The knowledge base's campaigns with their assignment counts. */
export async function listCampaigns(db: Queryable, kbId: number): Promise<CampaignSummary[]> {
  const { rows } = await db.query<CampaignSummary>(
    `SELECT c.id, c.name, c.status, c.annotators_per_seed AS "annotatorsPerSeed", s.name AS "querySet",
            (SELECT count(*)::int FROM campaign_seed x WHERE x.campaign_id = c.id) AS seeds,
            (SELECT count(*)::int FROM campaign_annotator x WHERE x.campaign_id = c.id) AS annotators,
            count(a.id) FILTER (WHERE a.status = 'ACTIVE' AND a.lease_expires_at >= now())::int AS active,
            count(a.id) FILTER (WHERE a.status = 'SUBMITTED')::int AS submitted,
            count(a.id) FILTER (WHERE a.status = 'APPROVED')::int AS approved,
            count(a.id) FILTER (WHERE a.status = 'SKIPPED')::int AS skipped
       FROM campaign c LEFT JOIN query_set s ON s.id = c.query_set_id LEFT JOIN assignment a ON a.campaign_id = c.id
      WHERE c.kb_id = $1 GROUP BY c.id, s.name ORDER BY c.created_at DESC, c.id DESC`, [kbId]);
  return rows;
}
