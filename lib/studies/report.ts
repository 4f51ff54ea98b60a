import { notFound } from '../errors';
import type { Queryable } from '../db/transaction';
import type { Dimension } from './dimensions';
import { setDiversity, type SetDiversity } from './diversity';
import { modelRaterResults, type ModelRaterResult } from './model-rater-results';
import { listModelRaters, modelRatingValues } from './model-rater-store';
import { studyResults, type RatedItem, type RatingRow, type ResultOptions, type StudyResults } from './results';

export interface StudyReport extends StudyResults {
  study: { id: number; name: string; dimensions: Dimension[] };
  /** Per source: the measured lexical diversity and near-duplicates of the whole source set. */
  diversity: (SetDiversity & { source: string })[];
  /** What models rated, each a source of its own: never counted in the human figures above. */
  modelRaters: ModelRaterResult[];
}

/** The study's items and every rating, as the results are computed from them. */
export async function studyData(db: Queryable, studyId: number): Promise<{ study: StudyReport['study']; items: (RatedItem & { querySetId: number | null; releaseId: number | null })[]; ratings: RatingRow[] }> {
  const { rows: [study] } = await db.query<StudyReport['study']>('SELECT id, name, dimensions FROM study WHERE id = $1', [studyId]);
  if (!study) throw notFound(`No study ${studyId}`);
  const [{ rows: items }, { rows: ratings }] = await Promise.all([
    db.query<RatedItem & { querySetId: number | null; releaseId: number | null }>(
      `SELECT id, source, query_external_id AS "queryExternalId", text, attention, query_set_id AS "querySetId", release_id AS "releaseId"
         FROM study_item WHERE study_id = $1 ORDER BY position`, [studyId]),
    db.query<RatingRow>(
      `SELECT r.participant_id AS "participantId", r.item_id AS "itemId", r.dimension, r.value, r.text
         FROM rating r JOIN study_participant p ON p.id = r.participant_id WHERE p.study_id = $1 ORDER BY r.participant_id, r.item_id, r.dimension`, [studyId]),
  ]);
  return { study, items, ratings };
}

/** Results, agreement, attention checks and the set-level diversity of each source. */
export async function studyReport(db: Queryable, studyId: number, opts: ResultOptions = {}): Promise<StudyReport> {
  const { study, items, ratings } = await studyData(db, studyId);
  const sources = new Map<string, { querySetId: number | null; releaseId: number | null }>();
  for (const i of items) if (!i.attention && !sources.has(i.source)) sources.set(i.source, { querySetId: i.querySetId, releaseId: i.releaseId });
  const diversity = await Promise.all([...sources].map(async ([source, ref]) => ({ source, ...setDiversity(await sourceQueries(db, ref)) })));
  const results = studyResults(study.dimensions, items, ratings, opts);
  // The model is compared with the ratings the human figures count.
  const excluded = new Set(results.attention.excluded ? results.attention.failed.map((f) => f.participantId) : []);
  const [raters, modelRatings] = await Promise.all([listModelRaters(db, studyId), modelRatingValues(db, studyId)]);
  const modelRaters = modelRaterResults(study.dimensions, raters.map(({ model, status, done, total, failures }) => ({ model, status, done, total, failures })),
    modelRatings, ratings.filter((r) => !excluded.has(r.participantId)));
  return { study, ...results, diversity, modelRaters };
}

/** Every query of a source set (the release's frozen copy when the items came from a release). */
async function sourceQueries(db: Queryable, ref: { querySetId: number | null; releaseId: number | null }): Promise<{ id: string; text: string }[]> {
  if (ref.releaseId !== null) return (await db.query<{ id: string; text: string }>('SELECT external_id AS id, text FROM release_query WHERE release_id = $1 ORDER BY position', [ref.releaseId])).rows;
  if (ref.querySetId !== null) return (await db.query<{ id: string; text: string }>('SELECT external_id AS id, text FROM query WHERE set_id = $1 ORDER BY position', [ref.querySetId])).rows;
  return [];
}
