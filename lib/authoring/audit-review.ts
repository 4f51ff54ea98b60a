import { z } from 'zod';
import { badRequest, conflict, notFound } from '../errors';
import { auditSql, inTransaction, type Database, type Queryable } from '../db/transaction';
import { idSchema } from '../input';
import { applyQueryChange, type QueryEntity } from '../queries/edit';
import { AUDIT_FLAGS, type AuditFlag } from './audit-flags';
import { auditItem, type AuditItemView } from './audit-work';
import type { Evidence, JudgmentLabel } from './drafts';
import { lockForReview } from './review';

export interface AuditQueueItem {
  number: number;
  externalId: string;
  text: string;
  submitted: number;
  approved: number;
}

/** An audit's items with submitted work waiting for review, in campaign order. */
export async function auditReviewQueue(db: Queryable, campaignId: number): Promise<AuditQueueItem[]> {
  const { rows } = await db.query<AuditQueueItem>(
    `SELECT -i.unit AS number, i.external_id AS "externalId", i.text,
            count(*) FILTER (WHERE a.status = 'SUBMITTED')::int AS submitted, count(*) FILTER (WHERE a.status = 'APPROVED')::int AS approved
       FROM audit_item i JOIN assignment a ON a.campaign_id = i.campaign_id AND a.entity_id = i.unit
      WHERE i.campaign_id = $1
      GROUP BY i.unit, i.external_id, i.text
     HAVING count(*) FILTER (WHERE a.status = 'SUBMITTED') > 0
      ORDER BY number`, [campaignId]);
  return rows;
}

/** One annotator's submitted audit of an item. */
export interface AuditWork {
  assignmentId: number;
  annotatorId: number;
  annotator: string;
  submittedAt: string;
  flags: AuditFlag[];
  note: string;
  judgments: { entityId: number; label: JudgmentLabel; evidence: Evidence[] }[];
}

/** What one annotator said of an entity, and why. */
export interface Verdict {
  annotatorId: number;
  label: JudgmentLabel;
  evidence: Evidence[];
}

export interface AuditItemReview {
  campaign: { id: number; name: string; querySet: string | null };
  item: AuditItemView;
  /** The live query the approval edits: its version and answers now; null once it left the set. */
  live: { version: number; answers: string[] } | null;
  work: AuditWork[];
  /** Each current answer with every annotator's verdict on it. */
  answers: (QueryEntity & { verdicts: Verdict[] })[];
  /** Entities annotators judged relevant that are not current answers: the answers they found missing. */
  added: { entityId: number; externalId: string; name: string; type: string; verdicts: Verdict[] }[];
}

async function submittedAudits(db: Queryable, campaignId: number, unit: number): Promise<AuditWork[]> {
  const { rows } = await db.query<AuditWork>(
    `SELECT a.id AS "assignmentId", a.annotator_id AS "annotatorId", coalesce(u.name, u.email) AS annotator, a.submitted_at AS "submittedAt",
            coalesce(f.flags, '{}') AS flags, coalesce(f.note, '') AS note,
            coalesce((SELECT json_agg(json_build_object('entityId', j.entity_id, 'label', j.label, 'evidence', j.evidence) ORDER BY j.entity_id)
                        FROM judgment j WHERE j.assignment_id = a.id), '[]') AS judgments
       FROM assignment a JOIN app_user u ON u.id = a.annotator_id LEFT JOIN audit_flag f ON f.assignment_id = a.id
      WHERE a.campaign_id = $1 AND a.entity_id = $2 AND a.status = 'SUBMITTED' ORDER BY a.id`, [campaignId, unit]);
  return rows;
}

/** What a reviewer adjudicates for one item: each annotator's audit, their verdicts on every current answer, and the answers they added. */
export async function auditItemReview(db: Queryable, campaignId: number, number: number): Promise<AuditItemReview> {
  const { rows: [c] } = await db.query<{ name: string; kbId: number; querySet: string | null; version: number | null; answers: string[] | null }>(
    `SELECT c.name, c.kb_id AS "kbId", s.name AS "querySet", q.version, q.answer_ids AS answers
       FROM campaign c JOIN audit_item i ON i.campaign_id = c.id AND i.unit = $2
       LEFT JOIN query_set s ON s.id = c.query_set_id LEFT JOIN query q ON q.id = i.query_id
      WHERE c.id = $1 AND c.kind = 'audit'`, [campaignId, -number]);
  if (!c) throw notFound(`No item ${number} in audit campaign ${campaignId}`);
  // One after the other: approval reads this inside its transaction.
  const item = await auditItem(db, c.kbId, campaignId, -number);
  const work = await submittedAudits(db, campaignId, -number);
  const verdictsOf = (entityId: number): Verdict[] => work.flatMap((w) => w.judgments.filter((j) => j.entityId === entityId).map((j) => ({ annotatorId: w.annotatorId, label: j.label, evidence: j.evidence })));
  const current = new Set(item.answers.map((e) => e.entityId));
  const addedIds = [...new Set(work.flatMap((w) => w.judgments.filter((j) => j.label === 'relevant' && !current.has(j.entityId)).map((j) => j.entityId)))];
  const { rows: named } = await db.query<{ entityId: number; externalId: string; name: string; type: string }>(
    `SELECT e.id AS "entityId", e.external_id AS "externalId", e.name, t.name AS type
       FROM entity e JOIN node_type t ON t.id = e.type_id WHERE e.kb_id = $1 AND e.id = ANY($2::int[]) ORDER BY e.name, e.id`, [c.kbId, addedIds]);
  return {
    campaign: { id: campaignId, name: c.name, querySet: c.querySet },
    item,
    live: c.version === null ? null : { version: c.version, answers: c.answers! },
    work,
    answers: item.answers.map((e) => ({ ...e, verdicts: verdictsOf(e.entityId!) })),
    added: named.map((e) => ({ ...e, verdicts: verdictsOf(e.entityId) })),
  };
}

export const auditApprovalSchema = z.object({
  /** Current answers: accept keeps, reject removes. Added answers: accept adds, reject leaves out. Rejections need a reason. */
  decisions: z.array(z.object({ entityId: idSchema, accept: z.boolean(), reason: z.string().max(1000).optional() }).strict()).max(10_000),
  /** What happens to the query itself: kept, kept with flags recorded, or removed from the set. */
  query: z.object({
    action: z.enum(['keep', 'flag', 'remove']),
    flags: z.array(z.enum(AUDIT_FLAGS)).max(AUDIT_FLAGS.length).default([]),
    note: z.string().max(5000).default(''),
  }).strict(),
}).strict();
export type AuditApproval = z.infer<typeof auditApprovalSchema>;

/** What the review decided for an item, kept on the item (and so still there once a removed query is gone). */
export interface AuditOutcome {
  action: 'keep' | 'flag' | 'remove';
  /** Whether the audit found the query wrong: an answer removed or added, or the query flagged or removed. */
  error: boolean;
  removedAnswers: { id: string; reason: string }[];
  addedAnswers: { id: string; chosenBy: string[] }[];
  flags: AuditFlag[];
  note: string;
  /** The query's version after the edit; null when nothing changed or it was removed. */
  version: number | null;
  reviewer: number;
  decidedAt: string;
}

function reasonText(campaign: string, number: number, o: Pick<AuditOutcome, 'action' | 'removedAnswers' | 'addedAnswers' | 'flags' | 'note'>): string {
  const parts = [
    ...o.removedAnswers.map((r) => `removed answer ${r.id} (${r.reason})`),
    ...(o.addedAnswers.length ? [`added answer${o.addedAnswers.length > 1 ? 's' : ''} ${o.addedAnswers.map((a) => a.id).join(', ')}`] : []),
    ...(o.action === 'flag' ? [`flagged ${o.flags.join(', ').replace(/_/g, ' ')} (${o.note})`] : []),
    ...(o.action === 'remove' ? [`query removed (${o.note})`] : []),
  ];
  return `audit campaign ${campaign}, item ${number}: ${parts.join('; ')}`;
}

/**
 * Approves an item's audit: the reviewer decides on every current answer (keep, or remove with a reason) and
 * every answer an annotator added (add, or leave out with a reason), and on the query (keep, flag with the
 * flags and a note, or remove with a note). The fixes edit the live query as a new revision whose reason names
 * the campaign (or remove it from the set); the outcome is kept on the item; the item's submitted work is
 * approved. One transaction: all of it, or nothing.
 */
export async function approveAudit(db: Database, assignmentId: number, reviewerId: number, input: AuditApproval): Promise<AuditOutcome> {
  return inTransaction(db, async (client) => {
    const a = await lockForReview(client, assignmentId, reviewerId);
    if (a.kind !== 'audit') throw badRequest('This assignment is not part of an audit campaign; approve it as a query');
    const number = -a.entity_id;
    const review = await auditItemReview(client, a.campaign_id, number);
    const decided = new Map(input.decisions.map((d) => [d.entityId, d]));
    const toDecide = [...review.answers.map((e) => e.entityId!), ...review.added.map((e) => e.entityId)];
    const undecided = toDecide.filter((id) => !decided.has(id));
    if (undecided.length) throw badRequest(`decisions: decide on every current and added answer; missing ${undecided.join(', ')}`);
    const unknown = input.decisions.filter((d) => !toDecide.includes(d.entityId));
    if (unknown.length) throw badRequest(`decisions: ${unknown.map((d) => d.entityId).join(', ')} is neither a current answer nor one an annotator added`);
    const noReason = input.decisions.filter((d) => !d.accept && !d.reason?.trim());
    if (noReason.length) throw badRequest(`decisions: give a reason for removing or leaving out ${noReason.map((d) => d.entityId).join(', ')}`);
    const { action, flags, note } = input.query;
    if (action === 'flag' && !flags.length) throw badRequest('query.flags: name at least one flag, or keep the query');
    if (action !== 'keep' && !note.trim()) throw badRequest(`query.note: say why the query is ${action === 'flag' ? 'flagged' : 'removed'}`);

    const { rows: [live] } = await client.query<{ externalId: string; version: number; answers: string[]; metadata: Record<string, unknown> }>(
      `SELECT q.external_id AS "externalId", q.version, q.answer_ids AS answers, q.metadata
         FROM audit_item i JOIN query q ON q.id = i.query_id WHERE i.campaign_id = $1 AND i.unit = $2 FOR UPDATE OF q`, [a.campaign_id, a.entity_id]);
    if (!live || !a.query_set_id) throw conflict(`Query ${review.item.externalId} is no longer in the set; nothing to fix`);
    const nameOf = new Map(review.work.map((w) => [w.annotatorId, w.annotator]));
    const removedAnswers = review.answers.filter((e) => !decided.get(e.entityId!)!.accept).map((e) => ({ id: e.id, reason: decided.get(e.entityId!)!.reason!.trim() }));
    const addedAnswers = review.added.filter((e) => decided.get(e.entityId)!.accept)
      .map((e) => ({ id: e.externalId, chosenBy: e.verdicts.filter((v) => v.label === 'relevant').map((v) => nameOf.get(v.annotatorId)!) }));
    const outcomeFields = { action, removedAnswers, addedAnswers, flags: action === 'flag' ? [...new Set(flags)] : [], note: note.trim() };
    const error = removedAnswers.length > 0 || addedAnswers.length > 0 || action !== 'keep';
    const reason = reasonText(a.name, number, outcomeFields);
    let version: number | null = null;
    if (action === 'remove') {
      await client.query('DELETE FROM query WHERE set_id = $1 AND external_id = $2', [a.query_set_id, live.externalId]);
      await client.query('UPDATE query_set SET updated_at = now() WHERE id = $1', [a.query_set_id]);
      await auditSql(client, { userId: reviewerId, action: 'queries.delete', targetType: 'query_set', targetId: a.query_set_id, kbId: a.kb_id, details: { query: live.externalId, reason } });
    } else if (error) {
      const removed = new Set(removedAnswers.map((r) => r.id));
      const answers = [...new Set([...live.answers.filter((id) => !removed.has(id)), ...addedAnswers.map((x) => x.id)])];
      const audits = Array.isArray(live.metadata.audits) ? live.metadata.audits : [];
      const metadata = { ...live.metadata, audits: [...audits, { campaign: a.name, item: number, ...outcomeFields, reviewer: reviewerId }] };
      version = await applyQueryChange(client, a.kb_id, a.query_set_id, live.externalId, { answers, metadata, version: live.version, reason }, reviewerId);
    }
    const outcome: AuditOutcome = { ...outcomeFields, error, version, reviewer: reviewerId, decidedAt: new Date().toISOString() };
    await client.query('UPDATE audit_item SET outcome = $3 WHERE campaign_id = $1 AND unit = $2', [a.campaign_id, a.entity_id, JSON.stringify(outcome)]);
    await client.query(
      `UPDATE assignment SET status = 'APPROVED', reviewed_by = $3, reviewed_at = now(), review_note = CASE WHEN id = $4 THEN review_note ELSE $5 END
        WHERE campaign_id = $1 AND entity_id = $2 AND status = 'SUBMITTED'`, [a.campaign_id, a.entity_id, reviewerId, assignmentId, `adjudicated with item ${number}`]);
    await auditSql(client, { userId: reviewerId, action: 'assignment.approve', targetType: 'assignment', targetId: assignmentId, kbId: a.kb_id, details: { audit: { item: number, action, error } } });
    return outcome;
  });
}
