import { z } from 'zod';
import { notFound } from '../errors';
import { auditSql, inTransaction, type Database, type Queryable } from '../db/transaction';
import type { SessionUser } from '../auth/session';
import { kbVisibleSql } from '../kb/access';
import { crowdConfigSchema, type CrowdConfig } from './crowd';
import { newCrowdKey } from './crowd-tokens';
import type { Dimension } from './dimensions';
import { STUDY_TAKES_ANSWERS } from './participants';

export interface StudySummary {
  id: number;
  name: string;
  status: 'DRAFT' | 'OPEN' | 'CLOSED';
  /** Open, within its dates. */
  takingAnswers: boolean;
  opensAt: string | null;
  closesAt: string | null;
  items: number;
  participants: number;
  finished: number;
  ratings: number;
}

const SUMMARY = `SELECT s.id, s.name, s.status, ${STUDY_TAKES_ANSWERS} AS "takingAnswers", s.opens_at AS "opensAt", s.closes_at AS "closesAt",
       (SELECT count(*)::int FROM study_item i WHERE i.study_id = s.id AND i.attention IS NULL) AS items,
       (SELECT count(*)::int FROM study_participant p WHERE p.study_id = s.id AND EXISTS (SELECT 1 FROM study_assignment a WHERE a.participant_id = p.id)) AS participants,
       (SELECT count(*)::int FROM study_participant p WHERE p.study_id = s.id AND p.finished_at IS NOT NULL) AS finished,
       (SELECT count(*)::int FROM rating r JOIN study_participant p ON p.id = r.participant_id WHERE p.study_id = s.id) AS ratings
  FROM study s`;

/** The knowledge base's studies, newest first, with their progress. */
export async function listStudies(db: Queryable, kbId: number): Promise<StudySummary[]> {
  return (await db.query<StudySummary>(`${SUMMARY} WHERE s.kb_id = $1 ORDER BY s.created_at DESC, s.id DESC`, [kbId])).rows;
}

export interface StudyDetail extends StudySummary {
  kbId: number;
  instructions: string;
  consent: string;
  dimensions: Dimension[];
  itemsPerParticipant: number;
  participantsPerItem: number;
  showAnswers: boolean;
  allowEditsAfterFinish: boolean;
  seed: number;
  hasStudyLink: boolean;
  /** The study link's recruiting platform settings; null for a plain link. */
  crowd: CrowdConfig | null;
  attentionChecks: number;
  sources: { source: string; items: number }[];
}

export async function studyDetail(db: Queryable, studyId: number): Promise<StudyDetail> {
  const { rows: [s] } = await db.query<Omit<StudyDetail, 'sources'>>(
    `SELECT x.*, s.kb_id AS "kbId", s.instructions, s.consent, s.dimensions, s.items_per_participant AS "itemsPerParticipant",
            s.participants_per_item AS "participantsPerItem", s.show_answers AS "showAnswers",
            s.allow_edits_after_finish AS "allowEditsAfterFinish", s.seed, s.link_hash IS NOT NULL AS "hasStudyLink", s.crowd,
            (SELECT count(*)::int FROM study_item i WHERE i.study_id = s.id AND i.attention IS NOT NULL) AS "attentionChecks"
       FROM study s JOIN LATERAL (${SUMMARY} WHERE s.id = $1) x ON x.id = s.id WHERE s.id = $1`, [studyId]);
  if (!s) throw notFound(`No study ${studyId}`);
  const { rows: sources } = await db.query<{ source: string; items: number }>(
    'SELECT source, count(*)::int AS items FROM study_item WHERE study_id = $1 AND attention IS NULL GROUP BY source ORDER BY source', [studyId]);
  return { ...s, sources };
}

/**
 * Sets up the study link for a recruiting platform, or back to a plain link (null). The study's crowd secret is
 * made once and kept, so participants who came already keep reaching their participation.
 */
export async function setStudyCrowd(db: Database, studyId: number, crowd: CrowdConfig | null, userId: number): Promise<void> {
  await inTransaction(db, async (client) => {
    const { rows: [s] } = await client.query<{ kb_id: number }>(
      'UPDATE study SET crowd = $2, crowd_key = coalesce(crowd_key, $3), updated_at = now() WHERE id = $1 RETURNING kb_id', [studyId, crowd, newCrowdKey()]);
    if (!s) throw notFound(`No study ${studyId}`);
    await auditSql(client, { userId, action: 'study.crowd', targetType: 'study', targetId: studyId, kbId: s.kb_id, details: { platform: crowd?.platform ?? null } });
  });
}

export const studyCrowdSchema = z.object({ crowd: crowdConfigSchema.nullable() }).strict();

export const studyStatusSchema = z.enum(['DRAFT', 'OPEN', 'CLOSED']);

export async function setStudyStatus(db: Database, studyId: number, status: z.infer<typeof studyStatusSchema>, userId: number): Promise<void> {
  await inTransaction(db, async (client) => {
    const { rows: [s] } = await client.query<{ kb_id: number }>('UPDATE study SET status = $2, updated_at = now() WHERE id = $1 RETURNING kb_id', [studyId, status]);
    if (!s) throw notFound(`No study ${studyId}`);
    await auditSql(client, { userId, action: 'study.status', targetType: 'study', targetId: studyId, kbId: s.kb_id, details: { status } });
  });
}

export interface ParticipantSummary {
  id: number;
  /** The rater's email, or null for an anonymous participant. */
  account: string | null;
  items: number;
  rated: number;
  consentedAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  /** When a study-link participant's items went back for lack of answers. */
  expiredAt: string | null;
  createdAt: string;
  /** A crowd participant's id on the recruiting platform, and how their participation ended when recorded. */
  externalId: string | null;
  outcome: 'COMPLETED' | 'SCREENED_OUT' | 'ATTENTION_FAILED' | null;
}

/** Who takes part: accounts and anonymous tokens (links not started yet have no items). */
export async function listParticipants(db: Queryable, studyId: number): Promise<ParticipantSummary[]> {
  const { rows } = await db.query<ParticipantSummary>(
    `SELECT p.id, u.email AS account, p.consented_at AS "consentedAt", p.started_at AS "startedAt", p.finished_at AS "finishedAt",
            p.expired_at AS "expiredAt", p.created_at AS "createdAt", p.external_id AS "externalId", p.outcome,
            (SELECT count(*)::int FROM study_assignment a WHERE a.participant_id = p.id) AS items,
            (SELECT count(DISTINCT r.item_id)::int FROM rating r WHERE r.participant_id = p.id) AS rated
       FROM study_participant p LEFT JOIN app_user u ON u.id = p.user_id WHERE p.study_id = $1 ORDER BY p.id`, [studyId]);
  return rows;
}

/** A study whose knowledge base the user can see; 404 otherwise, as for private knowledge bases. */
export async function visibleStudy(db: Queryable, user: SessionUser, studyId: number): Promise<{ id: number; kbId: number }> {
  const { rows: [s] } = await db.query<{ id: number; kb_id: number }>(
    `SELECT s.id, s.kb_id FROM study s JOIN knowledge_base k ON k.id = s.kb_id WHERE s.id = $1 AND ${kbVisibleSql('$2', '$3')}`,
    [studyId, user.role === 'ADMIN', user.id]);
  if (!s) throw notFound(`No study ${studyId}`);
  return { id: s.id, kbId: s.kb_id };
}
