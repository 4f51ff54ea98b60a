import crypto from 'node:crypto';
import { conflict, notFound } from '../errors';
import { inTransaction, type Database, type Queryable } from '../db/transaction';
import { captureParams, crowdConfigSchema, outcomeOf, type CrowdOutcome } from './crowd';
import { crowdToken } from './crowd-tokens';
import { joinLimits, joinWait, recordJoin, type JoinLimits } from './join-limits';
import { JOIN_LOCK, joinByStudyLink, JoinLimited, STUDY_CLOSED, STUDY_LINK_NOT_VALID, STUDY_TAKES_ANSWERS } from './participants';
import { hashToken, lookupKey } from './tokens';

/** A join: the participant's token, or, for a crowd participant who cannot take part, the outcome to show. */
export type JoinResult = { studyId: number; token: string; outcome: null } | { studyId: number; token: null; outcome: CrowdOutcome };

interface LinkStudy {
  id: number;
  open: boolean;
  closed: boolean;
  crowd: unknown;
  crowd_key: string | null;
}

/**
 * The study link, opened with the URL parameters it came with (`sent`). A plain link issues a new anonymous
 * participant (`joinByStudyLink`); a crowd link (set up for a platform) finds or makes the participant of the
 * platform id it carries, so coming back resumes, and answers an outcome instead when a new participant cannot
 * take part (closed, or past the cap).
 */
export async function joinThroughLink(db: Database, linkToken: string, address: string, sent: Record<string, string>, limits: JoinLimits = joinLimits()): Promise<JoinResult> {
  const { rows: [s] } = await db.query<LinkStudy>(
    `SELECT s.id, ${STUDY_TAKES_ANSWERS} AS open, ${STUDY_CLOSED} AS closed, s.crowd, s.crowd_key FROM study s WHERE s.link_hash = $1`, [lookupKey(linkToken)]);
  if (!s) throw notFound(STUDY_LINK_NOT_VALID);
  if (s.crowd === null) return { ...(await joinByStudyLink(db, linkToken, address, limits)), outcome: null };
  const config = crowdConfigSchema.parse(s.crowd);
  const captured = captureParams(config, sent);
  const token = crowdToken(s.crowd_key!, captured.externalId);
  // Someone already in comes back to their participation, whatever its state: its page says where it stands.
  if (await findCrowdParticipant(db, s.id, captured.externalId)) return { studyId: s.id, token, outcome: null };
  if (!s.open) {
    if (s.closed) return { studyId: s.id, token: null, outcome: outcomeOf(config, 'screened-out', 'closed') };
    // Not open yet: the participant should come back, so there is no code to give.
    throw conflict('This study is not open yet; come back later through the same link');
  }
  return inTransaction(db, async (client) => {
    // Joins of the study wait for each other, so the cap and a second first visit of the same id see the first.
    await client.query('SELECT pg_advisory_xact_lock($1::int, $2::int)', [JOIN_LOCK, s.id]);
    if (await findCrowdParticipant(client, s.id, captured.externalId)) return { studyId: s.id, token, outcome: null };
    if (config.cap !== null && await crowdCount(client, s.id) >= config.cap) {
      return { studyId: s.id, token: null, outcome: outcomeOf(config, 'screened-out', 'cap') };
    }
    const wait = await joinWait(client, s.id, address, limits);
    if (wait > 0) throw new JoinLimited(wait);
    await recordJoin(client, s.id, address);
    // The unique (study, external id) stands behind the lock: one participant per id, whatever happens.
    await client.query(
      `INSERT INTO study_participant (study_id, token_hash, seed, external_id, external_params) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (study_id, external_id) DO NOTHING`,
      [s.id, hashToken(token), crypto.randomInt(0, 2 ** 31 - 1), captured.externalId, captured.params]);
    return { studyId: s.id, token, outcome: null };
  });
}

async function findCrowdParticipant(db: Queryable, studyId: number, externalId: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM study_participant WHERE study_id = $1 AND external_id = $2', [studyId, externalId]);
  return rows.length > 0;
}

/** Crowd participants so far (the cap counts them, whatever became of them). */
async function crowdCount(db: Queryable, studyId: number): Promise<number> {
  const { rows: [r] } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM study_participant WHERE study_id = $1 AND external_id IS NOT NULL', [studyId]);
  return r!.n;
}
