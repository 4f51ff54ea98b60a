import type { Queryable } from '../db/transaction';
import { readQueries, type QuerySource } from './read';
import { difficultyDistribution, type BaselineDifficulty } from './difficulty-stats';
import { QuerySetStatsAccumulator, type QuerySetStats } from './set-stats';

export interface QuerySourceStats extends QuerySetStats {
  /** Queries that carry seed ids (STaRK `answer_ids_source`). */
  withSeeds: number;
  /** Distinct answer ids the knowledge base does not have (kept unresolved at import). */
  unresolvedAnswers: number;
  /** Per baseline (latest finished run of each name): the share of queries solved at Hit@1 and Hit@5. */
  difficulty: BaselineDifficulty[];
}

/** The STaRK Table 3 / Table 4 measures and the charts' distributions of a set or release, in one pass, and its difficulty for the baselines. */
export async function querySourceStats(db: Queryable, kbId: number, source: QuerySource): Promise<QuerySourceStats> {
  const acc = new QuerySetStatsAccumulator();
  let withSeeds = 0;
  for await (const q of readQueries(db, source)) {
    acc.add({ split: q.split, answerCount: q.answers.length, text: q.text });
    if (q.seeds.length) withSeeds++;
  }
  const [from, key] = 'setId' in source ? ['query WHERE set_id = $2', source.setId] : ['release_query WHERE release_id = $2', source.releaseId];
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT DISTINCT unnest(answer_ids) AS id FROM ${from}) a
      WHERE NOT EXISTS (SELECT 1 FROM entity e WHERE e.kb_id = $1 AND e.external_id = a.id)`, [kbId, key]);
  return { ...acc.result(), withSeeds, unresolvedAnswers: rows[0]!.n, difficulty: await difficultyDistribution(db, source) };
}
