import type { Queryable } from '../db/transaction';
import { campaignStats } from '../authoring/stats';
import { readQueries, type QuerySource } from '../queries/read';
import type { QuerySetStats } from '../queries/set-stats';
import type { QuerySetSummary } from '../queries/sets';
import { synthesisJobsOfSet, type CardJob } from '../synthesis/card';
import { studyData } from '../studies/report';
import { studyResults } from '../studies/results';

/** Answer and seed ids of the release that the knowledge base does not have, and where they are. */
export interface UnresolvedIds {
  /** Distinct unresolved ids, of answers and of seeds. */
  answerIds: number;
  seedIds: number;
  /** Queries naming at least one. */
  queries: number;
  /** The first queries that do (file order), with their unresolved ids. */
  examples: { query: string; ids: string[] }[];
}

/** An authoring or validation campaign whose approved queries are in the release. */
export interface CampaignRecord {
  name: string;
  kind: string;
  guidelines: string;
  annotatorsPerSeed: number;
  /** Annotators who handed work in, and the distinct reviewers who decided on it. */
  annotators: number;
  reviewers: number;
  /** Queries of the release written in it. */
  queries: number;
  alpha: number | null;
  alphaUnits: number;
  meanJaccard: number | null;
  seedsCompared: number;
}

/** A rating study that rated queries of this set (live or released). */
export interface StudyRecord {
  name: string;
  participants: number;
  ratings: number;
  dimensions: { label: string; alpha: number | null; units: number }[];
}

/**
 * Everything a release's dataset card and Croissant file say, gathered once when the release is made: both are
 * rendered from it, so they cannot disagree, and it is stored with the release so later changes elsewhere
 * (a campaign's reviews, a new study) never change what an earlier release says.
 */
export interface ReleaseRecord {
  set: Pick<QuerySetSummary, 'name' | 'description' | 'origin' | 'license'>;
  kb: { name: string; slug: string };
  /** `url`: the release's page, where it is published. */
  release: { number: number; name: string; notes: string; contentHash: string; createdAt: string; createdBy: string | null; url: string };
  /** ISO 639 code of the queries' language. */
  language: string;
  stats: QuerySetStats;
  /** Whether every id is an integer, so the release can be written as STaRK CSV. */
  starkIds: boolean;
  /** Queries per origin: a query's metadata `origin` when it has one, else its set's. */
  origins: { origin: string; queries: number }[];
  unresolved: UnresolvedIds;
  campaigns: CampaignRecord[];
  synthesis: CardJob[];
  studies: StudyRecord[];
}

export const UNRESOLVED_EXAMPLES = 20;

/** The source's table, picking its queries with the key as parameter `$param`. */
function sourceTable(source: QuerySource, param: number): { from: string; key: number } {
  return 'setId' in source ? { from: `query WHERE set_id = $${param}`, key: source.setId } : { from: `release_query WHERE release_id = $${param}`, key: source.releaseId };
}

/** Every answer or seed id of the source the knowledge base lacks, split by where it appears. */
export async function unresolvedIdsOf(db: Queryable, kbId: number, source: QuerySource): Promise<{ answers: Set<string>; seeds: Set<string> }> {
  const { from, key } = sourceTable(source, 2);
  const { rows } = await db.query<{ answers: string[]; seeds: string[] }>(
    `WITH ids AS (SELECT answer_ids, seed_ids FROM ${from})
     SELECT (SELECT coalesce(array_agg(DISTINCT a), '{}') FROM ids, unnest(answer_ids) a WHERE NOT EXISTS (SELECT 1 FROM entity e WHERE e.kb_id = $1 AND e.external_id = a)) AS answers,
            (SELECT coalesce(array_agg(DISTINCT s), '{}') FROM ids, unnest(seed_ids) s WHERE NOT EXISTS (SELECT 1 FROM entity e WHERE e.kb_id = $1 AND e.external_id = s)) AS seeds`,
    [kbId, key]);
  return { answers: new Set(rows[0]!.answers), seeds: new Set(rows[0]!.seeds) };
}

/** A campaign's figures, gathered before its queries are counted in the release. */
export type CampaignFigures = Omit<CampaignRecord, 'queries'>;

async function campaignFigures(db: Queryable, kbId: number, names: string[]): Promise<Map<string, CampaignFigures>> {
  if (!names.length) return new Map();
  const { rows } = await db.query<{ id: number; name: string; kind: string; guidelines: string; annotatorsPerSeed: number; reviewers: number }>(
    `SELECT c.id, c.name, c.kind, c.guidelines, c.annotators_per_seed AS "annotatorsPerSeed",
            (SELECT count(DISTINCT a.reviewed_by)::int FROM assignment a WHERE a.campaign_id = c.id) AS reviewers
       FROM campaign c WHERE c.kb_id = $1 AND c.name = ANY($2::text[]) ORDER BY c.id`, [kbId, names]);
  const figures = new Map<string, CampaignFigures>();
  for (const c of rows) {
    const stats = await campaignStats(db, c.id);
    figures.set(c.name, {
      name: c.name, kind: c.kind, guidelines: c.guidelines, annotatorsPerSeed: c.annotatorsPerSeed,
      annotators: stats.annotators.filter((a) => a.submitted > 0).length, reviewers: c.reviewers,
      alpha: stats.agreement.alpha, alphaUnits: stats.agreement.units, meanJaccard: stats.agreement.meanJaccard, seedsCompared: stats.agreement.seedsCompared,
    });
  }
  return figures;
}

async function studyRecords(db: Queryable, setId: number): Promise<StudyRecord[]> {
  const { rows } = await db.query<{ id: number }>(
    `SELECT DISTINCT i.study_id AS id FROM study_item i
      WHERE i.query_set_id = $1 OR i.release_id IN (SELECT id FROM query_release WHERE set_id = $1) ORDER BY 1`, [setId]);
  const records: StudyRecord[] = [];
  for (const { id } of rows) {
    const { study, items, ratings } = await studyData(db, id);
    const results = studyResults(study.dimensions, items, ratings, { bootstrapSamples: 0 });
    if (!results.ratings) continue;
    records.push({
      name: study.name, participants: results.participants, ratings: results.ratings,
      dimensions: results.dimensions.map((d) => ({ label: d.label, alpha: d.agreement.alpha, units: d.agreement.units })),
    });
  }
  return records;
}

/**
 * What the record takes from beyond the release's queries: the figures of the campaigns its queries name and
 * the studies of its set. Read through a pool (their statistics run queries side by side), so before the
 * release's transaction, which may hold the only connection.
 */
export interface ReleaseLookups {
  campaigns: Map<string, CampaignFigures>;
  studies: StudyRecord[];
}

export async function releaseLookups(db: Queryable, kbId: number, setId: number, source: QuerySource): Promise<ReleaseLookups> {
  const { from, key } = sourceTable(source, 1);
  const { rows } = await db.query<{ name: string }>(
    `SELECT DISTINCT metadata->>'campaign' AS name FROM ${from} AND jsonb_typeof(metadata->'campaign') = 'string'`, [key]);
  return { campaigns: await campaignFigures(db, kbId, rows.map((r) => r.name)), studies: await studyRecords(db, setId) };
}

export interface GatherInput {
  set: QuerySetSummary;
  kb: { name: string; slug: string };
  release: ReleaseRecord['release'];
  language: string;
  stats: QuerySetStats;
  starkIds: boolean;
  /** Where the release's queries are read: the live set inside the release's transaction, or the frozen copy. */
  source: QuerySource;
}

/** Gathers the release's record from its queries and the lookups (the campaigns, synthesis jobs and studies behind them). */
export async function gatherReleaseRecord(db: Queryable, input: GatherInput, lookups: ReleaseLookups): Promise<ReleaseRecord> {
  const { set, source } = input;
  const unknown = await unresolvedIdsOf(db, set.kbId, source);
  const origins = new Map<string, number>();
  const campaigns = new Map<string, number>();
  const unresolved: UnresolvedIds = { answerIds: unknown.answers.size, seedIds: unknown.seeds.size, queries: 0, examples: [] };
  for await (const q of readQueries(db, source)) {
    const origin = typeof q.metadata.origin === 'string' ? q.metadata.origin : set.origin;
    origins.set(origin, (origins.get(origin) ?? 0) + 1);
    if (typeof q.metadata.campaign === 'string') campaigns.set(q.metadata.campaign, (campaigns.get(q.metadata.campaign) ?? 0) + 1);
    const ids = [...new Set([...q.answers.filter((id) => unknown.answers.has(id)), ...q.seeds.filter((id) => unknown.seeds.has(id))])];
    if (!ids.length) continue;
    unresolved.queries++;
    if (unresolved.examples.length < UNRESOLVED_EXAMPLES) unresolved.examples.push({ query: q.id, ids });
  }
  return {
    set: { name: set.name, description: set.description, origin: set.origin, license: set.license },
    // Only what the record says: the caller's knowledge-base row may carry more (counts as BigInt, which JSON refuses).
    kb: { name: input.kb.name, slug: input.kb.slug }, release: input.release, language: input.language, stats: input.stats, starkIds: input.starkIds,
    origins: [...origins].map(([origin, queries]) => ({ origin, queries })).sort((a, b) => b.queries - a.queries || a.origin.localeCompare(b.origin)),
    unresolved,
    campaigns: [...lookups.campaigns.values()].filter((c) => campaigns.has(c.name)).map((c) => ({ ...c, queries: campaigns.get(c.name)! })),
    synthesis: await synthesisJobsOfSet(db, set.id),
    studies: lookups.studies,
  };
}

/** A record as stored (JSON): dates come back as strings, which the card's synthesis section formats. */
export function storedRecord(json: unknown): ReleaseRecord {
  const record = json as ReleaseRecord;
  return { ...record, synthesis: record.synthesis.map((j) => ({ ...j, createdAt: new Date(j.createdAt) })) };
}
