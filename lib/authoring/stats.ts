import type { Queryable } from '../db/transaction';
import { jaccard, krippendorffAlpha } from '../stats/agreement';

export interface AssignmentCounts {
  /** Every assignment ever leased. */
  assigned: number;
  /** Leased now, lease not run out. */
  active: number;
  /** With a saved, non-empty query. */
  drafted: number;
  /** Handed in at least once (including those since returned or approved). */
  submitted: number;
  returned: number;
  approved: number;
  skipped: number;
  expired: number;
  /** Median minutes from lease to (last) submission. */
  medianMinutesPerQuery: number | null;
}

export interface AnnotatorStats extends AssignmentCounts {
  annotatorId: number;
  annotator: string;
  /** Mean Jaccard of this annotator's answer sets with the others' on shared seeds. */
  meanJaccard: number | null;
}

export interface CampaignAgreement {
  /** Seeds with submitted work from two annotators or more. */
  seedsCompared: number;
  /** Pairs of annotators' answer sets compared. */
  pairs: number;
  /** Mean pairwise Jaccard similarity of the answer sets (the seed left out). */
  meanJaccard: number | null;
  /** Krippendorff's alpha (nominal) of the judgments of entities two annotators or more judged. */
  alpha: number | null;
  units: number;
}

export interface CampaignStats {
  totals: AssignmentCounts;
  annotators: AnnotatorStats[];
  agreement: CampaignAgreement;
}

const COUNTS = `count(*)::int AS assigned,
  count(*) FILTER (WHERE a.status = 'ACTIVE' AND a.lease_expires_at >= now())::int AS active,
  count(*) FILTER (WHERE btrim(d.text) <> '')::int AS drafted,
  count(*) FILTER (WHERE a.submitted_at IS NOT NULL)::int AS submitted,
  count(*) FILTER (WHERE a.status = 'RETURNED')::int AS returned,
  count(*) FILTER (WHERE a.status = 'APPROVED')::int AS approved,
  count(*) FILTER (WHERE a.status = 'SKIPPED')::int AS skipped,
  count(*) FILTER (WHERE a.status = 'EXPIRED' OR (a.status = 'ACTIVE' AND a.lease_expires_at < now()))::int AS expired,
  round((percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM a.submitted_at - a.leased_at) / 60))::numeric, 1)::float8 AS "medianMinutesPerQuery"`;

/** A campaign's progress, per annotator and in total, with the agreement of their answer sets. */
export async function campaignStats(db: Queryable, campaignId: number): Promise<CampaignStats> {
  const from = `FROM assignment a LEFT JOIN query_draft d ON d.assignment_id = a.id WHERE a.campaign_id = $1`;
  const [{ rows: [totals] }, { rows: annotators }, agreement] = await Promise.all([
    db.query<AssignmentCounts>(`SELECT ${COUNTS} ${from}`, [campaignId]),
    db.query<Omit<AnnotatorStats, 'meanJaccard'>>(
      `SELECT a.annotator_id AS "annotatorId", coalesce(u.name, u.email) AS annotator, ${COUNTS}
         ${from.replace('WHERE', 'JOIN app_user u ON u.id = a.annotator_id WHERE')}
        GROUP BY a.annotator_id, u.name, u.email ORDER BY annotator`, [campaignId]),
    answerAgreement(db, campaignId),
  ]);
  return {
    totals: totals!,
    annotators: annotators.map((a) => ({ ...a, meanJaccard: agreement.byAnnotator.get(a.annotatorId) ?? null })),
    agreement: agreement.campaign,
  };
}

interface Judged {
  entity_id: number;
  assignment_id: number;
  annotator_id: number;
  seed: number;
  label: string | null;
}

/**
 * Agreement between the annotators of each seed, over the work they handed in (submitted or approved):
 * pairwise Jaccard of the answer sets, and Krippendorff's alpha with each (seed, judged entity) as a unit.
 */
async function answerAgreement(db: Queryable, campaignId: number): Promise<{ campaign: CampaignAgreement; byAnnotator: Map<number, number> }> {
  const { rows } = await db.query<Judged>(
    `SELECT a.entity_id AS seed, a.id AS assignment_id, a.annotator_id, j.entity_id, j.label
       FROM assignment a LEFT JOIN judgment j ON j.assignment_id = a.id AND j.entity_id <> a.entity_id
      WHERE a.campaign_id = $1 AND a.status IN ('SUBMITTED', 'APPROVED')`, [campaignId]);
  const bySeed = new Map<number, Map<number, { annotator: number; labels: Map<number, string> }>>();
  for (const r of rows) {
    const works = bySeed.get(r.seed) ?? new Map<number, { annotator: number; labels: Map<number, string> }>();
    bySeed.set(r.seed, works);
    const work = works.get(r.assignment_id) ?? { annotator: r.annotator_id, labels: new Map<number, string>() };
    works.set(r.assignment_id, work);
    if (r.label) work.labels.set(r.entity_id, r.label);
  }
  const similarities: number[] = [];
  const perAnnotator = new Map<number, number[]>();
  const units: string[][] = [];
  let seedsCompared = 0;
  for (const works of bySeed.values()) {
    const list = [...works.values()];
    if (list.length < 2) continue;
    seedsCompared++;
    const relevant = list.map((w) => [...w.labels].filter(([, label]) => label === 'relevant').map(([id]) => id));
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const s = jaccard(relevant[i]!, relevant[j]!);
        similarities.push(s);
        for (const w of [list[i]!, list[j]!]) perAnnotator.set(w.annotator, [...(perAnnotator.get(w.annotator) ?? []), s]);
      }
    }
    const judgedEntities = new Set(list.flatMap((w) => [...w.labels.keys()]));
    for (const entity of judgedEntities) units.push(list.flatMap((w) => (w.labels.has(entity) ? [w.labels.get(entity)!] : [])));
  }
  const alpha = krippendorffAlpha(units, 'nominal');
  return {
    campaign: { seedsCompared, pairs: similarities.length, meanJaccard: mean(similarities), alpha: alpha.alpha, units: alpha.units },
    byAnnotator: new Map([...perAnnotator].map(([id, s]) => [id, mean(s)!])),
  };
}

function mean(xs: number[]): number | null {
  return xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null;
}
