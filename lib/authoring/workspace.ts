import { notFound } from '../errors';
import type { Queryable } from '../db/transaction';
import type { AssignmentView } from './assignments';
import { seedNames, type Evidence, type JudgmentLabel } from './drafts';
import { findLeaks, type LeakMatch } from './leak';
import { suggestionsFor, type Suggestion } from './validation-campaign';

export interface WorkspaceJudgment {
  entityId: number;
  externalId: string;
  name: string;
  type: string;
  label: JudgmentLabel;
  evidence: Evidence[];
  version: number;
}

export interface Workspace {
  assignment: AssignmentView & { reviewNote: string | null; editable: boolean };
  campaign: { id: number; name: string; guidelines: string; leakPolicy: 'warn' | 'block'; kbSlug: string; kind: 'authoring' | 'validation' };
  seed: { id: number; externalId: string; name: string; type: string; aliases: string[] };
  /** Version 0 when nothing was saved yet. */
  draft: { text: string; requirement: unknown; textSpans: unknown[]; version: number };
  /** Empty in a validation campaign, whose queries name their seed by design. */
  leaks: LeakMatch[];
  /** Every judgment so far, candidates and hand-added entities alike. */
  judgments: WorkspaceJudgment[];
  /** Validation campaigns: the validated query's answers, offered until the annotator accepts them as judgments. */
  suggestions: Suggestion[];
}

/** An assignment's judgments, in the order they were made, with the judged entities' names. */
export async function judgmentsOf(db: Queryable, assignmentId: number, kbId: number): Promise<WorkspaceJudgment[]> {
  const { rows } = await db.query<WorkspaceJudgment>(
    `SELECT j.entity_id AS "entityId", e.external_id AS "externalId", e.name, t.name AS type, j.label, j.evidence, j.version
       FROM judgment j JOIN entity e ON e.kb_id = $2 AND e.id = j.entity_id JOIN node_type t ON t.id = e.type_id
      WHERE j.assignment_id = $1 ORDER BY j.updated_at, j.entity_id`, [assignmentId, kbId]);
  return rows;
}

/** Everything the annotator's screen needs for one of their assignments, in one read. */
export async function workspace(db: Queryable, assignmentId: number, annotatorId: number): Promise<Workspace> {
  const { rows: [row] } = await db.query<AssignmentView & {
    reviewNote: string | null; expired: boolean; name: string; guidelines: string; leakPolicy: 'warn' | 'block'; kbSlug: string; kbId: number; kind: 'authoring' | 'validation';
    seedExternalId: string; seedName: string; seedType: string; aliases: string[];
    text: string | null; requirement: unknown; textSpans: unknown[] | null; version: number | null;
  }>(
    `SELECT a.id, a.campaign_id AS "campaignId", a.entity_id AS "entityId", a.annotator_id AS "annotatorId", a.slot, a.status,
            a.lease_expires_at AS "leaseExpiresAt", a.review_note AS "reviewNote", a.lease_expires_at < now() AS expired,
            c.name, c.guidelines, c.leak_policy AS "leakPolicy", k.slug AS "kbSlug", k.id AS "kbId", c.kind,
            e.external_id AS "seedExternalId", e.name AS "seedName", t.name AS "seedType", e.aliases,
            d.text, d.requirement, d.text_spans AS "textSpans", d.version
       FROM assignment a JOIN campaign c ON c.id = a.campaign_id JOIN knowledge_base k ON k.id = c.kb_id
       JOIN entity e ON e.kb_id = c.kb_id AND e.id = a.entity_id JOIN node_type t ON t.id = e.type_id
       LEFT JOIN query_draft d ON d.assignment_id = a.id
      WHERE a.id = $1 AND a.annotator_id = $2`, [assignmentId, annotatorId]);
  if (!row) throw notFound(`No assignment ${assignmentId} of yours`);
  const judgments = await judgmentsOf(db, assignmentId, row.kbId);
  const text = row.text ?? '';
  return {
    assignment: {
      id: row.id, campaignId: row.campaignId, entityId: row.entityId, annotatorId: row.annotatorId, slot: row.slot,
      status: row.status === 'ACTIVE' && row.expired ? 'EXPIRED' : row.status, leaseExpiresAt: row.leaseExpiresAt,
      reviewNote: row.reviewNote, editable: (row.status === 'ACTIVE' && !row.expired) || row.status === 'RETURNED',
    },
    campaign: { id: row.campaignId, name: row.name, guidelines: row.guidelines, leakPolicy: row.leakPolicy, kbSlug: row.kbSlug, kind: row.kind },
    seed: { id: row.entityId, externalId: row.seedExternalId, name: row.seedName, type: row.seedType, aliases: row.aliases },
    draft: { text, requirement: row.requirement ?? null, textSpans: row.textSpans ?? [], version: row.version ?? 0 },
    leaks: row.kind === 'validation' ? [] : findLeaks(text, await seedNames(db, row.kbId, row.entityId)),
    judgments,
    suggestions: row.kind === 'validation' ? await suggestionsFor(db, row.id, row.kbId) : [],
  };
}
