import crypto from 'node:crypto';
import { conflict, notFound } from '../errors';
import { auditSql, inTransaction, type Database, type Queryable } from '../db/transaction';
import { mulberry32 } from '../random';
import { hashToken, lookupKey, newToken } from './tokens';

/** Whether a study takes answers now: open, and within its dates. */
export const STUDY_TAKES_ANSWERS = `s.status = 'OPEN' AND (s.opens_at IS NULL OR s.opens_at <= now()) AND (s.closes_at IS NULL OR now() < s.closes_at)`;

async function insertParticipant(db: Queryable, studyId: number, userId: number | null): Promise<{ id: number; token: string }> {
  const token = newToken();
  const { rows: [p] } = await db.query<{ id: number }>(
    'INSERT INTO study_participant (study_id, user_id, token_hash, seed) VALUES ($1, $2, $3, $4) RETURNING id',
    [studyId, userId, hashToken(token), crypto.randomInt(0, 2 ** 31 - 1)]);
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

/** The study link issues a new anonymous participant, while the study takes answers. */
export async function joinByStudyLink(db: Queryable, linkToken: string): Promise<{ studyId: number; token: string }> {
  const { rows: [s] } = await db.query<{ id: number; open: boolean }>(
    `SELECT s.id, ${STUDY_TAKES_ANSWERS} AS open FROM study s WHERE s.link_hash = $1`, [lookupKey(linkToken)]);
  if (!s) throw notFound('This study link is not valid (it may have been replaced by a new one)');
  if (!s.open) throw conflict('This study is not taking answers now');
  return { studyId: s.id, token: (await insertParticipant(db, s.id, null)).token };
}

export interface ParticipantRef {
  id: number;
  studyId: number;
}

/** The participant a token stands for; a token grants its own study and nothing else. */
export async function participantByToken(db: Queryable, token: string): Promise<ParticipantRef> {
  const { rows: [p] } = await db.query<ParticipantRef>(
    'SELECT id, study_id AS "studyId" FROM study_participant WHERE token_hash = $1', [lookupKey(token)]);
  if (!p) throw notFound('This participation link is not valid');
  return p;
}

/** A rater's own participation in a study, made on their first visit. */
export async function accountParticipant(db: Queryable, studyId: number, userId: number): Promise<ParticipantRef> {
  const found = await db.query<ParticipantRef>('SELECT id, study_id AS "studyId" FROM study_participant WHERE study_id = $1 AND user_id = $2', [studyId, userId]);
  if (found.rows[0]) return found.rows[0];
  const { rows: [s] } = await db.query<{ open: boolean }>(`SELECT ${STUDY_TAKES_ANSWERS} AS open FROM study s WHERE s.id = $1`, [studyId]);
  if (!s) throw notFound(`No study ${studyId}`);
  if (!s.open) throw conflict('This study is not taking answers now');
  try {
    return { id: (await insertParticipant(db, studyId, userId)).id, studyId };
  } catch (err) {
    // Two first visits at once: the other one made it.
    if ((err as { code?: string }).code !== '23505') throw err;
    return (await db.query<ParticipantRef>('SELECT id, study_id AS "studyId" FROM study_participant WHERE study_id = $1 AND user_id = $2', [studyId, userId])).rows[0]!;
  }
}

/** Per study, the tail of this process's queue of first visits. */
const firstVisits = new Map<number, Promise<void>>();

/**
 * Runs `fn` after this process's earlier calls for the same study. Waiting here, rather than on the
 * database lock, keeps the pool's connections free for other requests during a burst of first visits.
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
 * Gives a participant their items on their first visit: the items with the fewest participants so far
 * (never more than the study's overlap), up to the study's number per participant, plus every attention
 * check, in an order shuffled with the participant's own seed. The study row is locked meanwhile, so
 * concurrent first visits share the items out one after the other, across processes too.
 */
export async function ensureAssigned(db: Database, participant: ParticipantRef): Promise<void> {
  const has = await db.query('SELECT 1 FROM study_assignment WHERE participant_id = $1 LIMIT 1', [participant.id]);
  if (has.rows.length) return;
  await inStudyQueue(participant.studyId, () => assignItems(db, participant));
}

async function assignItems(db: Database, participant: ParticipantRef): Promise<void> {
  await inTransaction(db, async (client) => {
    const { rows: [s] } = await client.query<{ ipp: number; ppi: number }>(
      'SELECT items_per_participant AS ipp, participants_per_item AS ppi FROM study WHERE id = $1 FOR UPDATE', [participant.studyId]);
    const again = await client.query('SELECT 1 FROM study_assignment WHERE participant_id = $1 LIMIT 1', [participant.id]);
    if (again.rows.length) return;
    const { rows: [p] } = await client.query<{ seed: number }>('SELECT seed FROM study_participant WHERE id = $1', [participant.id]);
    const { rows: items } = await client.query<{ id: number }>(
      `SELECT i.id FROM study_item i
         LEFT JOIN LATERAL (SELECT count(*)::int AS n FROM study_assignment a WHERE a.item_id = i.id) taken ON true
        WHERE i.study_id = $1 AND i.attention IS NULL AND taken.n < $2
        ORDER BY taken.n, md5($3::text || ':' || i.id) LIMIT $4`, [participant.studyId, s!.ppi, p!.seed, s!.ipp]);
    if (!items.length) return;
    const { rows: checks } = await client.query<{ id: number }>('SELECT id FROM study_item WHERE study_id = $1 AND attention IS NOT NULL ORDER BY position', [participant.studyId]);
    const order = shuffle([...items, ...checks].map((i) => i.id), p!.seed);
    await client.query(
      'INSERT INTO study_assignment (participant_id, item_id, position) SELECT $1, item, n - 1 FROM unnest($2::int[]) WITH ORDINALITY AS o(item, n)',
      [participant.id, order]);
  });
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
