import { notFound } from '../errors';
import type { Database, Queryable } from '../db/transaction';
import { BM25_DEFAULTS } from '../retrieval/bm25';
import { buildIndexInBackground, currentIndex } from '../retrieval/bm25-index';
import { bm25Positions } from '../retrieval/bm25-score';
import { tokenise } from '../retrieval/tokenise';
import { embedTexts, type EmbeddingsEndpoint } from '../vectors/embed-text';
import { vectorRankOf } from '../vectors/rank-of';
import { listEmbeddingSets } from '../vectors/sets';

/**
 * How hard a query is for the baselines, while it is written: where each baseline ranks the seed and the
 * answers judged relevant so far among all entities. Labels follow the metrics runs report: easy when the
 * entity is in the top 5 (Hit@5 solves it), medium in the top 20 (Recall@20 sees it), hard beyond that or
 * not retrieved at all.
 */
export type DifficultyLabel = 'easy' | 'medium' | 'hard';

export const EASY_WITHIN = 5;
export const MEDIUM_WITHIN = 20;

export function difficultyLabel(rank: number | null): DifficultyLabel {
  if (rank === null) return 'hard';
  return rank <= EASY_WITHIN ? 'easy' : rank <= MEDIUM_WITHIN ? 'medium' : 'hard';
}

export interface RankedEntity {
  entityId: number;
  externalId: string;
  name: string;
  /** null: the entity shares no word with the query, so the baseline does not retrieve it. */
  rank: number | null;
  label: DifficultyLabel;
}

/** One baseline's view of the query: BM25, and the vector baseline when the knowledge base has embeddings. */
export interface BaselineRanks {
  baseline: 'bm25' | 'vector';
  name: string;
  /** Entities the baseline ranks (the knowledge base's size). */
  entities: number;
  seed: RankedEntity;
  answers: RankedEntity[];
}

export type BaselineOutcome =
  | ({ status: 'ranked' } & BaselineRanks)
  /** The ranking index of the knowledge base is not built (yet), or a re-import made it stale. */
  | { status: 'no-index'; baseline: 'bm25'; name: string }
  /** The embeddings service could not embed the query (down, refused, wrong dimension). */
  | { status: 'unavailable'; baseline: 'vector'; name: string; reason: string };

export interface DifficultyCheck {
  /** The draft version the check read; 0 before the first save. */
  version: number;
  /** False when the saved query has no word to rank by. */
  hasQuery: boolean;
  /** The campaign's target: warn when the seed or an answer ranks within BM25's top `target`; null for none. */
  target: number | null;
  baselines: BaselineOutcome[];
  /** Entities BM25 ranks within the target: the seed and answers the query makes too easy to find. */
  withinTarget: (RankedEntity & { seed: boolean })[];
}

interface Named {
  entityId: number;
  externalId: string;
  name: string;
}

type Ranks = { entities: number; rankOf: (id: number) => number | null };
type Asked = Named & { seed: boolean };

function ranked(baseline: BaselineRanks['baseline'], name: string, ranks: Ranks, asked: Asked[]): BaselineRanks & { status: 'ranked' } {
  const entity = ({ seed: _, ...e }: Asked): RankedEntity => {
    const rank = ranks.rankOf(e.entityId);
    return { ...e, rank, label: difficultyLabel(rank) };
  };
  return {
    status: 'ranked', baseline, name, entities: ranks.entities,
    seed: entity(asked.find((e) => e.seed)!), answers: asked.filter((e) => !e.seed).map(entity),
  };
}

/**
 * The vector baseline's ranks, when the knowledge base has entity embeddings and an embeddings service can
 * embed the text: the set named as the service's model, else the knowledge base's only set. Null when there is
 * no such set (nothing to show); 'unavailable' with the reason when the service fails.
 */
async function vectorOutcome(db: Database, kbId: number, text: string, asked: Asked[], endpoint: EmbeddingsEndpoint): Promise<BaselineOutcome | null> {
  const sets = await listEmbeddingSets(db, kbId);
  const set = sets.find((s) => s.name === endpoint.model) ?? (sets.length === 1 ? sets[0] : undefined);
  if (!set) return null;
  const name = `Vector (${set.name})`;
  try {
    const [vector] = await embedTexts(endpoint, [text]);
    const found = await vectorRankOf(db, kbId, set.name, vector!, asked.map((e) => e.entityId));
    return found && ranked('vector', name, { entities: found.total, rankOf: (id) => found.ranks.get(id) ?? null }, asked);
  } catch (err) {
    return { status: 'unavailable', baseline: 'vector', name, reason: (err as Error).message };
  }
}

/**
 * BM25's rank of each of `entityIds` for `text`, with the number of entities ranked; null when the knowledge
 * base has no current index. The baseline's own scorer over the default index (no relation lines, no stop
 * words, no stemming) with k1 1.2 and b 0.75, so a rank is the entity's place in a baseline run's ranking.
 */
export async function bm25Ranks(db: Queryable, kbId: number, text: string, entityIds: number[]): Promise<Ranks | null> {
  const index = await currentIndex(db, kbId, false);
  if (!index) return null;
  const { ranks } = await bm25Positions(db, index, BM25_DEFAULTS, text, entityIds);
  return { entities: index.docs, rankOf: (id) => ranks.get(id) ?? null };
}

/**
 * The difficulty of an assignment's saved draft: its text as last autosaved, its seed and the entities its
 * annotator judged relevant. Who may ask is the route's business; this reads any assignment. Without a current
 * index, `startBuild` starts building one in the background (the answer says it is not there yet). With an
 * embeddings service (`embeddings`) the vector baseline ranks them too; the target concerns BM25 alone.
 */
export async function assignmentDifficulty(db: Database, assignmentId: number, opts: { startBuild?: boolean; embeddings?: EmbeddingsEndpoint | null } = {}): Promise<DifficultyCheck> {
  const { rows: [a] } = await db.query<{ kbId: number; seedId: number; text: string | null; version: number | null; target: number | null }>(
    `SELECT c.kb_id AS "kbId", a.entity_id AS "seedId", d.text, d.version, c.bm25_target AS target
       FROM assignment a JOIN campaign c ON c.id = a.campaign_id LEFT JOIN query_draft d ON d.assignment_id = a.id
      WHERE a.id = $1`, [assignmentId]);
  if (!a) throw notFound(`No assignment ${assignmentId}`);
  const { rows: asked } = await db.query<Asked>(
    `SELECT e.id AS "entityId", e.external_id AS "externalId", e.name, e.id = $3 AS seed
       FROM entity e
      WHERE e.kb_id = $2 AND e.id = ANY(ARRAY(SELECT $3::int UNION SELECT j.entity_id FROM judgment j WHERE j.assignment_id = $1 AND j.label = 'relevant'))
      ORDER BY e.name, e.id`, [assignmentId, a.kbId, a.seedId]);
  const text = a.text ?? '';
  const check = { version: a.version ?? 0, hasQuery: tokenise(text).length > 0, target: a.target };
  const [ranks, vector] = await Promise.all([
    bm25Ranks(db, a.kbId, text, asked.map((e) => e.entityId)),
    opts.embeddings && check.hasQuery ? vectorOutcome(db, a.kbId, text, asked, opts.embeddings) : null,
  ]);
  const others = vector ? [vector] : [];
  if (!ranks) {
    if (opts.startBuild) buildIndexInBackground(db, a.kbId);
    return { ...check, baselines: [{ status: 'no-index', baseline: 'bm25', name: 'BM25' }, ...others], withinTarget: [] };
  }
  const bm25 = ranked('bm25', 'BM25', ranks, asked);
  const withinTarget = a.target === null ? [] : [bm25.seed, ...bm25.answers]
    .filter((e) => e.rank !== null && e.rank <= a.target!).map((e) => ({ ...e, seed: e.entityId === a.seedId }));
  return { ...check, baselines: [bm25, ...others], withinTarget };
}

/** What an approved query keeps in its metadata: BM25's ranks of its seed and answers, by external id. */
export interface StoredDifficulty {
  bm25: { seedRank: number | null; label: DifficultyLabel; answerRanks: { entity: string; rank: number | null }[]; entities: number };
}

/** BM25's ranks for an approved query's text and answers; null when the index is not built (nothing is stored then). */
export async function storedDifficulty(db: Queryable, kbId: number, text: string, seed: number, answers: Omit<Named, 'name'>[]): Promise<StoredDifficulty | null> {
  const ranks = await bm25Ranks(db, kbId, text, [seed, ...answers.map((a) => a.entityId)]);
  if (!ranks) return null;
  const seedRank = ranks.rankOf(seed);
  return {
    bm25: {
      seedRank, label: difficultyLabel(seedRank), entities: ranks.entities,
      answerRanks: answers.map((a) => ({ entity: a.externalId, rank: ranks.rankOf(a.entityId) })),
    },
  };
}
