import type { Queryable } from '../db/transaction';
import type { ModelRaterRow, ModelRaterStatus, ModelRatingRow } from './model-rater-results';

export interface ModelRaterView extends ModelRaterRow {
  id: number;
  baseUrlHost: string;
  message: string | null;
  createdAt: string;
  finishedAt: string | null;
}

const VIEW = `SELECT id, model, base_url_host AS "baseUrlHost", status, done, total, failures, message,
                     created_at AS "createdAt", finished_at AS "finishedAt"
                FROM study_model_rater`;

/** The study's model raters with their progress, in the order they were added. */
export async function listModelRaters(db: Queryable, studyId: number): Promise<ModelRaterView[]> {
  return (await db.query<ModelRaterView>(`${VIEW} WHERE study_id = $1 ORDER BY created_at, id`, [studyId])).rows;
}

/** Every value the study's models gave, for the results. */
export async function modelRatingValues(db: Queryable, studyId: number): Promise<ModelRatingRow[]> {
  const { rows } = await db.query<ModelRatingRow>(
    `SELECT model, item_id AS "itemId", dimension, value FROM study_model_rating
      WHERE study_id = $1 AND value IS NOT NULL ORDER BY model, item_id, dimension`, [studyId]);
  return rows;
}

export interface ItemToRateRow {
  id: number;
  text: string;
  answerNames: string[];
}

/** The study's items (attention checks aside) that the model has not rated yet, failed ones included. */
export async function itemsLeftToRate(db: Queryable, studyId: number, model: string): Promise<ItemToRateRow[]> {
  const { rows } = await db.query<ItemToRateRow>(
    `SELECT i.id, i.text, i.answer_names AS "answerNames" FROM study_item i
      WHERE i.study_id = $1 AND i.attention IS NULL
        AND NOT EXISTS (SELECT 1 FROM study_model_rating r WHERE r.study_id = $1 AND r.item_id = i.id AND r.model = $2 AND r.value IS NOT NULL)
      ORDER BY i.position`, [studyId, model]);
  return rows;
}

/** One item's outcome: a value (with the model's reason) per dimension, or the failure on each dimension. */
export type ItemOutcome =
  | { ok: true; values: Record<string, number>; reason: string; callId: number }
  | { ok: false; failure: string; callId: number | null };

/**
 * Stores an item's outcome over whatever an earlier attempt left, counts it in the rater's progress and touches
 * its heartbeat; says whether a cancel was asked for (from any app process).
 */
export async function saveItemOutcome(db: Queryable, rater: { id: number; studyId: number; model: string }, itemId: number, dimensions: string[], outcome: ItemOutcome): Promise<{ cancelRequested: boolean }> {
  const rows = dimensions.map((dimension) => (outcome.ok
    ? { dimension, value: outcome.values[dimension]!, text: outcome.reason || null, call_id: outcome.callId }
    : { dimension, value: null, text: outcome.failure, call_id: outcome.callId }));
  const { rows: [updated] } = await db.query<{ cancelRequested: boolean }>(
    `WITH saved AS (
       INSERT INTO study_model_rating (study_id, item_id, model, dimension, value, text, call_id)
       SELECT $1, $2, $3, r.dimension, r.value, r.text, r.call_id FROM jsonb_to_recordset($4::jsonb) AS r(dimension text, value int, text text, call_id int)
       ON CONFLICT (study_id, item_id, model, dimension) DO UPDATE SET value = EXCLUDED.value, text = EXCLUDED.text, call_id = EXCLUDED.call_id, created_at = now()
     )
     UPDATE study_model_rater SET done = done + $6::int, failures = failures + $7::int, heartbeat_at = now() WHERE id = $5
     RETURNING cancel_requested AS "cancelRequested"`,
    [rater.studyId, itemId, rater.model, JSON.stringify(rows), rater.id, outcome.ok ? 1 : 0, outcome.ok ? 0 : 1]);
  return { cancelRequested: updated?.cancelRequested ?? false };
}

/** Ends a run: its status and message, with the counts taken from what is stored. */
export async function finishModelRater(db: Queryable, raterId: number, status: ModelRaterStatus, message: string | null): Promise<void> {
  await db.query(
    `UPDATE study_model_rater m SET status = $2, message = $3, finished_at = now(),
            done = (SELECT count(DISTINCT r.item_id)::int FROM study_model_rating r WHERE r.study_id = m.study_id AND r.model = m.model AND r.value IS NOT NULL),
            failures = (SELECT count(DISTINCT r.item_id)::int FROM study_model_rating r WHERE r.study_id = m.study_id AND r.model = m.model AND r.value IS NULL)
      WHERE id = $1`, [raterId, status, message]);
}
