import { z } from 'zod';
import { badRequest, conflict, notFound } from '../errors';
import { auditSql, inTransaction, type Database, type Queryable } from '../db/transaction';
import { resolveEntities, type QueryEntity } from '../queries/edit';
import { extendLease, lockOwnActive, type AssignmentView, type LockedAssignment } from './assignments';
import { AUDIT_FLAGS, type AuditFlag } from './audit-flags';
import { judgmentsOf, type WorkspaceJudgment } from './workspace';

/** A query of an audit as the campaign showed it. */
export interface AuditItemView {
  /** 1, 2, …: the item's number in the campaign. */
  number: number;
  /** The query's id in its set. */
  externalId: string;
  text: string;
  split: string | null;
  origin: 'human' | 'synthesized' | 'imported';
  answers: QueryEntity[];
  seeds: QueryEntity[];
}

export interface AuditFlags {
  flags: AuditFlag[];
  note: string;
  /** 0 before the first save. */
  version: number;
}

export interface AuditWorkspace {
  assignment: Pick<AssignmentView, 'id' | 'campaignId' | 'status' | 'leaseExpiresAt'> & { reviewNote: string | null; editable: boolean };
  campaign: { id: number; name: string; guidelines: string; kbSlug: string; querySet: string | null; release: number | null };
  item: AuditItemView;
  /** Current answers judged correct (relevant) or wrong (not relevant), and answers added (relevant, not current). */
  judgments: WorkspaceJudgment[];
  flags: AuditFlags;
}

/** The item an audit assignment holds (its unit is the item's key in campaign_seed.entity_id). */
export async function auditItem(db: Queryable, kbId: number, campaignId: number, unit: number): Promise<AuditItemView> {
  const { rows: [item] } = await db.query<{ externalId: string; text: string; split: string | null; origin: AuditItemView['origin']; answerIds: string[]; seedIds: string[] }>(
    `SELECT external_id AS "externalId", text, split, origin, answer_ids AS "answerIds", seed_ids AS "seedIds"
       FROM audit_item WHERE campaign_id = $1 AND unit = $2`, [campaignId, unit]);
  if (!item) throw notFound(`No item ${-unit} in campaign ${campaignId}`);
  // One after the other: `db` may be a transaction's client, which runs one statement at a time.
  const answers = await resolveEntities(db, kbId, item.answerIds);
  const seeds = await resolveEntities(db, kbId, item.seedIds);
  return { number: -unit, externalId: item.externalId, text: item.text, split: item.split, origin: item.origin, answers, seeds };
}

/** What the annotator's audit screen needs for one of their assignments; another person's, or one of another kind of campaign, is a 404. */
export async function auditWorkspace(db: Queryable, assignmentId: number, annotatorId: number): Promise<AuditWorkspace> {
  const { rows: [row] } = await db.query<{
    id: number; campaignId: number; unit: number; status: AssignmentView['status']; leaseExpiresAt: string; reviewNote: string | null; expired: boolean;
    name: string; guidelines: string; kbSlug: string; kbId: number; querySet: string | null; release: number | null;
    flags: AuditFlag[] | null; note: string | null; flagVersion: number | null;
  }>(
    `SELECT a.id, a.campaign_id AS "campaignId", a.entity_id AS unit, a.status, a.lease_expires_at AS "leaseExpiresAt", a.review_note AS "reviewNote",
            a.lease_expires_at < now() AS expired, c.name, c.guidelines, k.slug AS "kbSlug", k.id AS "kbId", s.name AS "querySet",
            c.audit_release AS release, f.flags, f.note, f.version AS "flagVersion"
       FROM assignment a JOIN campaign c ON c.id = a.campaign_id JOIN knowledge_base k ON k.id = c.kb_id
       LEFT JOIN query_set s ON s.id = c.query_set_id LEFT JOIN audit_flag f ON f.assignment_id = a.id
      WHERE a.id = $1 AND a.annotator_id = $2 AND c.kind = 'audit'`, [assignmentId, annotatorId]);
  if (!row) throw notFound(`No audit assignment ${assignmentId} of yours`);
  const [item, judgments] = await Promise.all([auditItem(db, row.kbId, row.campaignId, row.unit), judgmentsOf(db, assignmentId, row.kbId)]);
  return {
    assignment: {
      id: row.id, campaignId: row.campaignId, status: row.status === 'ACTIVE' && row.expired ? 'EXPIRED' : row.status, leaseExpiresAt: row.leaseExpiresAt,
      reviewNote: row.reviewNote, editable: (row.status === 'ACTIVE' && !row.expired) || row.status === 'RETURNED',
    },
    campaign: { id: row.campaignId, name: row.name, guidelines: row.guidelines, kbSlug: row.kbSlug, querySet: row.querySet, release: row.release },
    item,
    judgments,
    flags: { flags: row.flags ?? [], note: row.note ?? '', version: row.flagVersion ?? 0 },
  };
}

export const auditFlagsSchema = z.object({
  flags: z.array(z.enum(AUDIT_FLAGS)).max(AUDIT_FLAGS.length),
  note: z.string().max(5000),
  version: z.number().int().min(0),
}).strict();

/** Locks the annotator's assignment for a change and checks it belongs to an audit. */
async function lockOwnAudit(client: Queryable, assignmentId: number, annotatorId: number): Promise<LockedAssignment> {
  const a = await lockOwnActive(client, assignmentId, annotatorId);
  if (a.kind !== 'audit') throw notFound(`No audit assignment ${assignmentId} of yours`);
  return a;
}

/**
 * Saves the annotator's flags on the query text (with the note saying why) and renews the lease; 409 when
 * they were saved elsewhere since `version`, as drafts are.
 */
export async function saveAuditFlags(db: Database, assignmentId: number, annotatorId: number, input: z.infer<typeof auditFlagsSchema>): Promise<{ version: number }> {
  return inTransaction(db, async (client) => {
    const a = await lockOwnAudit(client, assignmentId, annotatorId);
    const { rows: [current] } = await client.query<{ version: number }>('SELECT version FROM audit_flag WHERE assignment_id = $1', [assignmentId]);
    if ((current?.version ?? 0) !== input.version) throw conflict(`The flags were saved elsewhere (version ${current?.version ?? 0}; you had version ${input.version}). Reload to see them.`);
    const { rows: [saved] } = await client.query<{ version: number }>(
      `INSERT INTO audit_flag (assignment_id, flags, note) VALUES ($1, $2, $3)
       ON CONFLICT (assignment_id) DO UPDATE SET flags = EXCLUDED.flags, note = EXCLUDED.note, version = audit_flag.version + 1, updated_at = now()
       RETURNING version`, [assignmentId, [...new Set(input.flags)], input.note.trim()]);
    await extendLease(client, assignmentId, a);
    return { version: saved!.version };
  });
}

export interface AuditSubmission {
  assignmentId: number;
  /** Current answers judged correct, wrong or unsure. */
  correct: number;
  wrong: number;
  unsure: number;
  /** Entities judged relevant that are not current answers. */
  added: number;
  flags: AuditFlag[];
}

/**
 * Hands the audit in: every current answer must be judged (correct, wrong or unsure), and flags need a note
 * saying why. 400 naming what is missing, nothing written.
 */
export async function submitAudit(db: Database, assignmentId: number, annotatorId: number): Promise<AuditSubmission> {
  return inTransaction(db, async (client) => {
    const a = await lockOwnAudit(client, assignmentId, annotatorId);
    const item = await auditItem(client, a.kb_id, a.campaign_id, a.entity_id);
    const { rows: judged } = await client.query<{ entity_id: number; label: string }>('SELECT entity_id, label FROM judgment WHERE assignment_id = $1', [assignmentId]);
    const labelOf = new Map(judged.map((j) => [j.entity_id, j.label]));
    const unjudged = item.answers.filter((e) => !labelOf.has(e.entityId!));
    if (unjudged.length) throw badRequest(`answers: mark every current answer correct or wrong; not judged: ${unjudged.map((e) => `${e.name} (${e.id})`).join(', ')}`);
    const { rows: [flagRow] } = await client.query<{ flags: AuditFlag[]; note: string }>('SELECT flags, note FROM audit_flag WHERE assignment_id = $1', [assignmentId]);
    const flags = flagRow?.flags ?? [];
    if (flags.length && !flagRow!.note.trim()) throw badRequest('note: say why the query is flagged');
    const current = new Set(item.answers.map((e) => e.entityId));
    const count = (label: string) => item.answers.filter((e) => labelOf.get(e.entityId!) === label).length;
    const result = {
      assignmentId, correct: count('relevant'), wrong: count('not_relevant'), unsure: count('unsure'),
      added: judged.filter((j) => j.label === 'relevant' && !current.has(j.entity_id)).length, flags,
    };
    await client.query(`UPDATE assignment SET status = 'SUBMITTED', submitted_at = now() WHERE id = $1`, [assignmentId]);
    await auditSql(client, { userId: annotatorId, action: 'assignment.submit', targetType: 'assignment', targetId: assignmentId, kbId: a.kb_id, details: { audit: result } });
    return result;
  });
}
