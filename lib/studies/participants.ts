import crypto from 'node:crypto';
import { AppError, badRequest, conflict, notFound } from '../errors';
import { auditSql, inTransaction, type Database, type Queryable } from '../db/transaction';
import { mulberry32 } from '../random';
import { joinLimits, joinWait, recordJoin, type JoinLimits } from './join-limits';
import { hashToken, lookupKey, newToken } from './tokens';

/** Whether a study takes answers now: open, and within its dates. */
export const STUDY_TAKES_ANSWERS = `s.status = 'OPEN' AND (s.opens_at IS NULL OR s.opens_at <= now()) AND (s.closes_at IS NULL OR now() < s.closes_at)`;

/** Whether a study has closed for good (closed by a curator, or past its closing date). */
export const STUDY_CLOSED = `((s.closes_at IS NOT NULL AND now() >= s.closes_at) OR s.status = 'CLOSED')`;

export async function insertParticipant(db: Queryable, studyId: number, userId: number | null, fromStudyLink = false): Promise<{ id: number; token: string }> {
  const token = newToken();
  const { rows: [p] } = await db.query<{ id: number }>(
    'INSERT INTO study_participant (study_id, user_id, token_hash, seed, from_study_link) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [studyId, userId, hashToken(token), crypto.randomInt(0, 2 ** 31 - 1), fromStudyLink]);
  return { id: p!.id, token };
}

/** Personal links for anonymous participants: the tokens, shown once (only their hashes are kept). */
export async function issueLinks(db: Database, studyId: number, count: number, userId: number): Promise<string[]> {
  return inTransaction(db, async (client) => {
    const tokens: string[] = [];
    for (let i = 0; i < count; i++) tokens.push((await insertParticipant(client, studyId, null)).token);
    const { rows: [s] } = await client.query<{ kb_id: number }>('SELECT kb_id FROM study WHERE id = $1', [studyId]);
    await auditSql(client, { userId, action: 'study.links', targetType: 'study', targetId: studyId, kbId: s!.kb_id, details: { count } });
    return tokens;
  });
}

/** A new study link (the old one stops working); its secret, shown once. */
export async function renewStudyLink(db: Queryable, studyId: number): Promise<string> {
  const token = newToken();
  const { rowCount } = await db.query('UPDATE study SET link_hash = $2, updated_at = now() WHERE id = $1', [studyId, hashToken(token)]);
  if (!rowCount) throw notFound(`No study ${studyId}`);
  return token;
}

/** A join refused by the study link's limits; `retryAfterSeconds` is when the next one is taken. */
export class JoinLimited extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, `Too many people joined through this study link just now; try again in ${waitText(retryAfterSeconds)}`);
  }
}

const waitText = (seconds: number) => seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;

/** Identifies the study link joins' lock among the database's advisory locks (the second key is the study). */
export const JOIN_LOCK = 0x5347_4a4e;

/**
 * The study link issues a new anonymous participant, while the study takes answers and within the join limits
 * for the caller's `address` and for the link. Joins of the same study wait for each other (an advisory lock, so
 * not the study row that item hand-outs lock), so concurrent ones, from any process, count each other.
 */
export async function joinByStudyLink(db: Database, linkToken: string, address: string, limits: JoinLimits = joinLimits()): Promise<{ studyId: number; token: string }> {
  return inTransaction(db, async (client) => {
    const { rows: [s] } = await client.query<{ id: number; open: boolean; crowd: boolean }>(
      `SELECT s.id, ${STUDY_TAKES_ANSWERS} AS open, s.crowd IS NOT NULL AS crowd FROM study s WHERE s.link_hash = $1`, [lookupKey(linkToken)]);
    if (!s) throw notFound(STUDY_LINK_NOT_VALID);
    // A crowd link's participants are known by their platform id (see crowd-join.ts).
    if (s.crowd) throw badRequest('This study link is for participants of a recruiting platform: open it from there, so that it carries your id');
    if (!s.open) throw conflict('This study is not taking answers now');
    await client.query('SELECT pg_advisory_xact_lock($1::int, $2::int)', [JOIN_LOCK, s.id]);
    const wait = await joinWait(client, s.id, address, limits);
    if (wait > 0) throw new JoinLimited(wait);
    await recordJoin(client, s.id, address);
    return { studyId: s.id, token: (await insertParticipant(client, s.id, null, true)).token };
  });
}

export const STUDY_LINK_NOT_VALID = 'This study link is not valid (it may have been replaced by a new one)';

export interface ParticipantRef {
  id: number;
  studyId: number;
}

/** The participant a token stands for; a token grants its own study and nothing else. */
export async function participantByToken(db: Queryable, token: string): Promise<ParticipantRef> {
  const { rows: [p] } = await db.query<ParticipantRef & { expired: boolean }>(
    'SELECT id, study_id AS "studyId", expired_at IS NOT NULL AS expired FROM study_participant WHERE token_hash = $1', [lookupKey(token)]);
  if (!p) throw notFound('This participation link is not valid');
  if (p.expired) throw participationExpired();
  return { id: p.id, studyId: p.studyId };
}

/** A study-link participant whose items went back to the pool: the link says so, and how to take part again. */
export const participationExpired = () => new AppError(410,
  'This participation link has expired: it gave no answer for a while after starting, so its items went to other participants. Open the study link again to take part');

/** A rater's participation in a study, if they have one (looking makes none). */
export async function findAccountParticipant(db: Queryable, studyId: number, userId: number): Promise<ParticipantRef | null> {
  const { rows: [p] } = await db.query<ParticipantRef>('SELECT id, study_id AS "studyId" FROM study_participant WHERE study_id = $1 AND user_id = $2', [studyId, userId]);
  return p ?? null;
}

/** A rater's own participation in a study, made by their first action in it (agreeing, starting, rating). */
export async function accountParticipant(db: Queryable, studyId: number, userId: number): Promise<ParticipantRef> {
  const found = await findAccountParticipant(db, studyId, userId);
  if (found) return found;
  const { rows: [s] } = await db.query<{ open: boolean }>(`SELECT ${STUDY_TAKES_ANSWERS} AS open FROM study s WHERE s.id = $1`, [studyId]);
  if (!s) throw notFound(`No study ${studyId}`);
  if (!s.open) throw conflict('This study is not taking answers now');
  try {
    return { id: (await insertParticipant(db, studyId, userId)).id, studyId };
  } catch (err) {
    // Two first actions at once: the other one made it.
    if ((err as { code?: string }).code !== '23505') throw err;
    return (await findAccountParticipant(db, studyId, userId))!;
  }
}

/** Per study, the tail of this process's queue of starts. */
const firstVisits = new Map<number, Promise<void>>();

/**
 * Runs `fn` after this process's earlier calls for the same study. Waiting here, rather than on the
 * database lock, keeps the pool's connections free for other requests during a burst of starts.
 */
async function inStudyQueue<T>(studyId: number, fn: () => Promise<T>): Promise<T> {
  const before = firstVisits.get(studyId) ?? Promise.resolve();
  let done!: () => void;
  const tail = before.then(() => new Promise<void>((resolve) => { done = resolve; }));
  firstVisits.set(studyId, tail);
  try {
    await before;
    return await fn();
  } finally {
    done();
    if (firstVisits.get(studyId) === tail) firstVisits.delete(studyId);
  }
}

/**
 * Gives a participant their items when they start: the items with the fewest participants so far (never more
 * than the study's overlap), up to the study's number per participant, plus every attention check, in an order
 * shuffled with the participant's own seed. The study row is locked meanwhile, so concurrent starts share the
 * items out one after the other, across processes too. A participant who found the study full gets another try.
 */
export async function ensureAssigned(db: Database, participant: ParticipantRef, limits: JoinLimits = joinLimits()): Promise<void> {
  const has = await db.query('SELECT 1 FROM study_assignment WHERE participant_id = $1 LIMIT 1', [participant.id]);
  if (has.rows.length) return;
  await inStudyQueue(participant.studyId, () => assignItems(db, participant, limits));
}

async function assignItems(db: Database, participant: ParticipantRef, limits: JoinLimits): Promise<void> {
  await inTransaction(db, async (client) => {
    const { rows: [s] } = await client.query<{ ipp: number; ppi: number }>(
      'SELECT items_per_participant AS ipp, participants_per_item AS ppi FROM study WHERE id = $1 FOR UPDATE', [participant.studyId]);
    const again = await client.query('SELECT 1 FROM study_assignment WHERE participant_id = $1 LIMIT 1', [participant.id]);
    if (again.rows.length) return;
    await reclaimIdle(client, participant.studyId, limits.reclaimMinutes);
    const { rows: [p] } = await client.query<{ seed: number }>('SELECT seed FROM study_participant WHERE id = $1', [participant.id]);
    const { rows: items } = await client.query<{ id: number }>(
      `SELECT i.id FROM study_item i
         LEFT JOIN LATERAL (SELECT count(*)::int AS n FROM study_assignment a WHERE a.item_id = i.id) taken ON true
        WHERE i.study_id = $1 AND i.attention IS NULL AND taken.n < $2
        ORDER BY taken.n, md5($3::text || ':' || i.id) LIMIT $4`, [participant.studyId, s!.ppi, p!.seed, s!.ipp]);
    // Started either way; the idle clock runs from when items were given.
    await client.query(`UPDATE study_participant SET started_at = ${items.length ? 'now()' : 'coalesce(started_at, now())'} WHERE id = $1`, [participant.id]);
    if (!items.length) return;
    const { rows: checks } = await client.query<{ id: number }>('SELECT id FROM study_item WHERE study_id = $1 AND attention IS NOT NULL ORDER BY position', [participant.studyId]);
    const order = shuffle([...items, ...checks].map((i) => i.id), p!.seed);
    await client.query(
      'INSERT INTO study_assignment (participant_id, item_id, position) SELECT $1, item, n - 1 FROM unnest($2::int[]) WITH ORDINALITY AS o(item, n)',
      [participant.id, order]);
  });
}

/**
 * Gives back the places of study-link participants who started `minutes` ago or more and have not rated:
 * their items return to the pool and their link stops working. Runs under the study's hand-out lock, so the
 * overlap stays exact. Candidates are locked first and checked again in a fresh snapshot, and a rating save
 * key-share-locks its participant (see `saveRating`): an answer being saved either lands first, and the
 * participant keeps their items, or finds them gone; it is never stored and then lost.
 */
async function reclaimIdle(client: Queryable, studyId: number, minutes: number): Promise<void> {
  const { rows: idle } = await client.query<{ id: number }>(
    `SELECT p.id FROM study_participant p
      WHERE p.study_id = $1 AND p.from_study_link AND p.expired_at IS NULL AND p.started_at <= now() - make_interval(mins => $2)
        AND EXISTS (SELECT 1 FROM study_assignment a WHERE a.participant_id = p.id)
        AND NOT EXISTS (SELECT 1 FROM rating r WHERE r.participant_id = p.id)
      FOR UPDATE OF p`, [studyId, minutes]);
  if (!idle.length) return;
  const { rows: expired } = await client.query<{ id: number }>(
    `UPDATE study_participant p SET expired_at = now()
      WHERE p.id = ANY($1::int[]) AND NOT EXISTS (SELECT 1 FROM rating r WHERE r.participant_id = p.id) RETURNING p.id`, [idle.map((p) => p.id)]);
  if (expired.length) await client.query('DELETE FROM study_assignment WHERE participant_id = ANY($1::int[])', [expired.map((p) => p.id)]);
}

/** Fisher-Yates with a seeded stream: the same seed, the same order. */
export function shuffle<T>(xs: T[], seed: number): T[] {
  const out = [...xs];
  const rng = mulberry32(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
