import { z } from 'zod';
import { idSchema } from '../input';
import { badRequest, conflict, notFound } from '../errors';
import { inTransaction, type Database, type Queryable } from '../db/transaction';
import { crowdConfigSchema, crowdOutcome, type CrowdOutcome } from './crowd';
import { CROWD_DEADLINE, CROWD_TIMED_OUT } from './crowd-sql';
import { invalidAnswer, type Dimension } from './dimensions';
import { ensureAssigned, findAccountParticipant, participationExpired, STUDY_CLOSED, STUDY_TAKES_ANSWERS, type ParticipantRef } from './participants';
import { lookupKey } from './tokens';

export interface ParticipationItem {
  itemId: number;
  position: number;
  text: string;
  /** The query's answers by name, when the study shows them. */
  answerNames: string[];
}

export interface Participation {
  study: {
    id: number; name: string; instructions: string; consent: string; dimensions: Dimension[]; showAnswers: boolean;
    /** Whether a participant who has finished may still change their answers. */
    allowEditsAfterFinish: boolean;
    /** Taking answers now; when not, `closed` tells a closed study from one not open yet. */
    open: boolean; closed: boolean; opensAt: string | null; closesAt: string | null;
  };
  /** `startedAt` is null until the participant starts (`startParticipation`), which hands out their items. */
  participant: { consentedAt: string | null; startedAt: string | null; finishedAt: string | null };
  /** The participant's items in their order; attention checks look like any other item. */
  items: ParticipationItem[];
  ratings: { itemId: number; dimension: string; value: number | null; text: string | null }[];
  /** Items with every required dimension answered. */
  complete: number;
  /** For a participant who came from a recruiting platform: how their participation ended, and their time limit. */
  crowd: { outcome: CrowdOutcome | null; deadline: string | null } | null;
}

/** What a participant sees: the study, their items and their answers so far. Reading it changes nothing. */
export const participation = (db: Queryable, participant: ParticipantRef): Promise<Participation> => view(db, participant.studyId, participant.id);

/** A signed-in rater's view of a study: as a participant's, with nothing started when they have not taken part yet. */
export async function accountParticipation(db: Queryable, studyId: number, userId: number): Promise<Participation> {
  return view(db, studyId, (await findAccountParticipant(db, studyId, userId))?.id ?? null);
}

async function view(db: Queryable, studyId: number, participantId: number | null): Promise<Participation> {
  const { rows: [row] } = await db.query<Participation['study'] & Participation['participant'] & CrowdRow>(
    `SELECT s.id, s.name, s.instructions, s.consent, s.dimensions, s.show_answers AS "showAnswers", s.allow_edits_after_finish AS "allowEditsAfterFinish",
            ${STUDY_TAKES_ANSWERS} AS open, ${STUDY_CLOSED} AS closed, s.opens_at AS "opensAt", s.closes_at AS "closesAt",
            p.consented_at AS "consentedAt", p.started_at AS "startedAt", p.finished_at AS "finishedAt",
            CASE WHEN p.external_id IS NOT NULL THEN s.crowd END AS "crowdConfig", p.outcome, ${CROWD_DEADLINE} AS deadline, ${CROWD_TIMED_OUT} AS "timedOut"
       FROM study s LEFT JOIN study_participant p ON p.id = $2 AND p.study_id = s.id WHERE s.id = $1`, [studyId, participantId]);
  if (!row) throw notFound('This participation link is not valid');
  const [{ rows: items }, { rows: ratings }] = participantId === null ? [{ rows: [] }, { rows: [] }] : await Promise.all([
    db.query<ParticipationItem>(
      `SELECT i.id AS "itemId", a.position, i.text, CASE WHEN $2 THEN i.answer_names ELSE '{}' END AS "answerNames"
         FROM study_assignment a JOIN study_item i ON i.id = a.item_id WHERE a.participant_id = $1 ORDER BY a.position`, [participantId, row.showAnswers]),
    db.query<Participation['ratings'][number]>(
      'SELECT item_id AS "itemId", dimension, value, text FROM rating WHERE participant_id = $1 ORDER BY item_id, dimension', [participantId]),
  ]);
  const { consentedAt, startedAt, finishedAt, crowdConfig, outcome, deadline, timedOut, ...study } = row;
  const crowd = crowdConfig === null ? null : {
    outcome: crowdOutcome(crowdConfigSchema.parse(crowdConfig), { outcome, timedOut, closed: study.closed, full: startedAt !== null && items.length === 0 }),
    deadline,
  };
  return { study, participant: { consentedAt, startedAt, finishedAt }, items, ratings, complete: completeItems(study.dimensions, items, ratings), crowd };
}

/** What the view reads of a crowd participation (all null for other participants). */
interface CrowdRow {
  crowdConfig: unknown;
  outcome: 'COMPLETED' | 'SCREENED_OUT' | 'ATTENTION_FAILED' | null;
  deadline: string | null;
  timedOut: boolean;
}

/**
 * Starts the participation: hands out the participant's items (see `ensureAssigned`), once, and answers the
 * view. Refused while the study does not take answers. (Rating still waits for the consent.)
 */
export async function startParticipation(db: Database, participant: ParticipantRef): Promise<Participation> {
  // A crowd participation that has ended (or cannot go on) answers its outcome rather than an error.
  const current = await participation(db, participant);
  if (current.crowd?.outcome) return current;
  const { rows: [ctx] } = await db.query<{ open: boolean; closed: boolean }>(
    `SELECT ${STUDY_TAKES_ANSWERS} AS open, ${STUDY_CLOSED} AS closed FROM study s WHERE s.id = $1`, [participant.studyId]);
  if (!ctx) throw notFound('This participation link is not valid');
  if (!ctx.open) throw conflict(ctx.closed ? 'This study has closed; answers are no longer taken' : 'This study is not open yet');
  await ensureAssigned(db, participant);
  return participation(db, participant);
}

function completeItems(dimensions: Dimension[], items: { itemId: number }[], ratings: { itemId: number; dimension: string }[]): number {
  const required = dimensions.filter((d) => d.required).map((d) => d.key);
  const answered = new Set(ratings.map((r) => `${r.itemId}:${r.dimension}`));
  return items.filter((i) => required.every((k) => answered.has(`${i.itemId}:${k}`))).length;
}

/** Records the participant's agreement to the study's consent text. */
export async function giveConsent(db: Queryable, participant: ParticipantRef): Promise<void> {
  await db.query('UPDATE study_participant SET consented_at = coalesce(consented_at, now()) WHERE id = $1', [participant.id]);
}

export const ratingInputSchema = z.object({
  itemId: idSchema,
  dimension: z.string().min(1).max(40),
  value: z.number().nullable().optional(),
  text: z.string().max(2000).nullable().optional(),
}).strict();
export type RatingInput = z.infer<typeof ratingInputSchema>;

/**
 * Saves one answer, at once and exactly once: the (participant, item, dimension) key makes a repeated or
 * double submit change the same row. Refused, with nothing stored, when the study does not take answers, the
 * consent is missing, the participant has finished (unless the study allows changes after finishing) or has
 * lost their items for not rating, the item is not one of the participant's, or the value is not on the scale.
 */
export async function saveRating(db: Database, who: ParticipantRef | { token: string }, input: RatingInput): Promise<SaveResult> {
  // A token is resolved in the same statement: one round trip fewer on the participants' hot path.
  const [where, key] = 'token' in who ? ['p.token_hash = $1', lookupKey(who.token)] : ['p.id = $1', who.id];
  const { rows: [ctx] } = await db.query<{
    participantId: number; open: boolean; closed: boolean; needsConsent: boolean; finished: boolean; expired: boolean; dimensions: Dimension[]; assigned: boolean;
    crowd: boolean; ended: boolean; timedOut: boolean; attempts: number | null; attention: { dimension: string; accept: number[] } | null;
  }>(
    `SELECT p.id AS "participantId", ${STUDY_TAKES_ANSWERS} AS open, ${STUDY_CLOSED} AS closed,
            (s.consent <> '' AND p.consented_at IS NULL) AS "needsConsent", s.dimensions,
            (p.finished_at IS NOT NULL AND NOT s.allow_edits_after_finish) AS finished, p.expired_at IS NOT NULL AS expired,
            EXISTS (SELECT 1 FROM study_assignment a WHERE a.participant_id = p.id AND a.item_id = $2) AS assigned,
            (p.external_id IS NOT NULL AND s.crowd IS NOT NULL) AS crowd, p.outcome IS NOT NULL AS ended, ${CROWD_TIMED_OUT} AS "timedOut",
            (s.crowd->>'attentionAttempts')::int AS attempts, (SELECT i.attention FROM study_item i WHERE i.id = $2 AND i.study_id = s.id) AS attention
       FROM study_participant p JOIN study s ON s.id = p.study_id WHERE ${where}`, [key, input.itemId]);
  if (!ctx) throw notFound('This participation link is not valid');
  if (ctx.expired) throw participationExpired();
  if (!ctx.open) throw conflict(ctx.closed ? 'This study has closed; answers are no longer taken' : 'This study is not open yet');
  if (ctx.needsConsent) throw conflict('Agree to the consent text before rating');
  // Another study's item is not found, whatever the state of this participation.
  if (!ctx.assigned) throw notFound(`Item ${input.itemId} is not one of your items`);
  if (ctx.crowd && ctx.ended) throw conflict(PARTICIPATION_ENDED);
  if (ctx.crowd && ctx.timedOut) throw conflict('Your time for this study is up; your answers so far are kept');
  if (ctx.finished) throw conflict('You have finished this study; your answers can no longer be changed');
  const dimension = ctx.dimensions.find((d) => d.key === input.dimension);
  if (!dimension) throw badRequest(`dimension: "${input.dimension}" is not a dimension of this study`);
  const wrong = invalidAnswer(dimension, input);
  if (wrong) throw badRequest(wrong);
  const [value, text] = dimension.kind === 'text' ? [null, input.text!] : [input.value!, null];
  const missed = ctx.attention !== null && ctx.attention.dimension === input.dimension && !ctx.attention.accept.includes(value!);
  if (ctx.crowd && missed) return attentionMiss(db, ctx.participantId, input, ctx.attempts ?? 1);
  if (!await upsertRating(db, ctx.participantId, input.itemId, input.dimension, value, text)) throw participationExpired();
  return { saved: true };
}

/** A saved answer (`ended` when it ended the participation), or a wrong answer to an attention check to try again. */
export type SaveResult = { saved: true; ended?: true } | { saved: false; retry: string };

const PARTICIPATION_ENDED = 'Your part in this study has ended; your answers can no longer be changed';

/**
 * Writes one answer; false when the participant lost their items. The participant row is key-share-locked while
 * the answer is written: giving idle participants' items back locks them first, so the two never cross (see
 * `reclaimIdle`).
 */
async function upsertRating(db: Queryable, participantId: number, itemId: number, dimension: string, value: number | null, text: string | null): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO rating (participant_id, item_id, dimension, value, text)
     SELECT p.id, $2, $3, $4, $5 FROM study_participant p WHERE p.id = $1 AND p.expired_at IS NULL FOR KEY SHARE
     ON CONFLICT (participant_id, item_id, dimension) DO UPDATE SET value = EXCLUDED.value, text = EXCLUDED.text, updated_at = now()`,
    [participantId, itemId, dimension, value, text]);
  return rowCount === 1;
}

/**
 * A crowd participant's wrong answer to an attention check: recorded; with tries left (the study's
 * `attentionAttempts`), nothing is saved and they are asked to answer again; on the last try the answer is
 * saved and the participation ends with the attention-failure outcome. The participant row is locked, so
 * concurrent answers count each other.
 */
async function attentionMiss(db: Database, participantId: number, input: RatingInput, attempts: number): Promise<SaveResult> {
  return inTransaction(db, async (client) => {
    const { rows: [p] } = await client.query('SELECT 1 FROM study_participant WHERE id = $1 AND outcome IS NULL FOR UPDATE', [participantId]);
    if (!p) throw conflict(PARTICIPATION_ENDED);
    await client.query('INSERT INTO study_attention_miss (participant_id, item_id, value) VALUES ($1, $2, $3)', [participantId, input.itemId, input.value]);
    const { rows: [m] } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM study_attention_miss WHERE participant_id = $1 AND item_id = $2', [participantId, input.itemId]);
    const left = attempts - m!.n;
    if (left > 0) {
      return { saved: false, retry: `That answer does not follow what this item asks. Read it again and answer once more (${left} more ${left === 1 ? 'try' : 'tries'}).` };
    }
    if (!await upsertRating(client, participantId, input.itemId, input.dimension, input.value!, null)) throw participationExpired();
    await client.query(`UPDATE study_participant SET outcome = 'ATTENTION_FAILED', outcome_at = now() WHERE id = $1`, [participantId]);
    return { saved: true, ended: true };
  });
}

/** Marks the participation finished once every item has its required answers. */
export async function finishParticipation(db: Queryable, participant: ParticipantRef): Promise<void> {
  const view = await participation(db, participant);
  const ended = view.crowd?.outcome;
  if (ended?.kind === 'completed') return;
  if (ended) throw conflict(PARTICIPATION_ENDED);
  if (!view.participant.startedAt) throw conflict('Start the study before finishing it');
  const missing = view.items.length - view.complete;
  if (missing > 0) throw badRequest(`${missing} item${missing > 1 ? 's' : ''} still need${missing > 1 ? '' : 's'} an answer on every required scale`);
  // A crowd participant completes: their page shows the completion code (and sends them back to the platform).
  await db.query(
    `UPDATE study_participant SET finished_at = coalesce(finished_at, now()),
            outcome = CASE WHEN external_id IS NOT NULL THEN 'COMPLETED' END, outcome_at = CASE WHEN external_id IS NOT NULL THEN now() END
      WHERE id = $1 AND outcome IS NULL`, [participant.id]);
}
