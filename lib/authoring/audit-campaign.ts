import { z } from 'zod';
import { badRequest } from '../errors';
import { inTransaction, type Database, type Queryable } from '../db/transaction';
import { isCanonicalInteger } from '../queries/formats/integer-ids';
import { readQueries, type StoredQuery } from '../queries/read';
import { querySourceOf } from '../queries/releases';
import type { QuerySetSummary } from '../queries/sets';
import { campaignInputSchema, insertCampaign } from './campaigns';

/** The guidelines of an audit: check a published query and its answers with evidence, fix what is wrong. */
export const AUDIT_GUIDELINES = `# Auditing a query and its answers

The query in front of you is part of a published set. Check that it is right and that its answers are exact.

1. **Read the query.** Flag it when it is *ambiguous* (two readings give different answers), when it *leaks
   the answer* (names it or gives it away) or when it is *unanswerable* from the knowledge base, and say why.
2. **Check every current answer.** Mark it *correct* or *wrong*, citing the passage of its document or the
   edge that shows it; *unsure* when the knowledge base cannot tell.
3. **Add the answers that are missing.** Start from the query's seeds with the metapath tool, judge the
   candidates, or find an entity by name.
4. Submit. A reviewer compares the annotators and decides what changes in the set.
`;

export const auditCampaignInputSchema = campaignInputSchema.omit({ leakPolicy: true, bm25Target: true, querySet: true }).extend({
  guidelines: z.string().max(50_000).default(AUDIT_GUIDELINES),
  annotatorsPerSeed: z.number().int().min(1).max(20).default(1),
  /** Audit this release of the set instead of the live set; fixes still go to the live set. */
  release: z.number().int().min(1).max(1_000_000).optional(),
});
export type AuditCampaignInput = z.infer<typeof auditCampaignInputSchema>;

export interface CreatedAuditCampaign {
  id: number;
  items: number;
}

/** How a query was made: as its provenance says, else as its set was. */
export function queryOrigin(metadata: Record<string, unknown>, setOrigin: string): 'human' | 'synthesized' | 'imported' {
  const said = metadata.origin;
  if (said === 'human' || said === 'synthesized' || said === 'imported') return said;
  if (metadata.synthesis) return 'synthesized';
  if (metadata.campaign) return 'human';
  return setOrigin === 'human' || setOrigin === 'synthesized' ? setOrigin : 'imported';
}

/** A problem of one query of the audited set: where it is (line = its place in the set, from 1) and what. */
interface QueryProblem {
  line: number;
  query: string;
  reason: string;
}

const SHOWN_PROBLEMS = 100;

/**
 * The queries an audit can use, each with the live query it will edit; 400 with every problem by query and
 * line when any cannot be used: an answer or seed that is not an entity of this knowledge base (said as "not
 * an integer id" when the knowledge base's ids are all integers, as STaRK's are, and this one is not), or
 * (auditing a release) a query no longer in the set, so a fix would have nowhere to go.
 */
async function auditableQueries(db: Queryable, kbId: number, set: QuerySetSummary, release: number | undefined) {
  const queries: StoredQuery[] = [];
  for await (const q of readQueries(db, await querySourceOf(db, set.id, release))) queries.push(q);
  if (!queries.length) throw badRequest(`querySet: "${set.name}" has no queries to audit`);
  const { rows: [kb] } = await db.query<{ integerIds: boolean }>(
    `SELECT coalesce(bool_and(external_id ~ '^(0|[1-9][0-9]*)$'), false) AS "integerIds" FROM entity WHERE kb_id = $1`, [kbId]);
  const { rows: unknown } = await db.query<{ id: string }>(
    `SELECT DISTINCT x.id FROM unnest($2::text[]) AS x(id) WHERE NOT EXISTS (SELECT 1 FROM entity e WHERE e.kb_id = $1 AND e.external_id = x.id)`,
    [kbId, [...new Set(queries.flatMap((q) => [...q.answers, ...q.seeds]))]]);
  const missing = new Set(unknown.map((r) => r.id));
  const { rows: live } = await db.query<{ id: number; externalId: string }>(
    'SELECT id, external_id AS "externalId" FROM query WHERE set_id = $1 AND external_id = ANY($2::text[])', [set.id, queries.map((q) => q.id)]);
  const liveId = new Map(live.map((q) => [q.externalId, q.id]));
  const problems: QueryProblem[] = [];
  queries.forEach((q, i) => {
    const absent = [...q.answers, ...q.seeds].find((id) => missing.has(id));
    if (absent !== undefined) {
      const what = q.answers.includes(absent) ? 'answer' : 'seed';
      problems.push({ line: i + 1, query: q.id, reason: kb!.integerIds && !isCanonicalInteger(absent)
        ? `${what} "${absent}" is not an integer id, as every entity id of this knowledge base is`
        : `${what} "${absent}" is not an entity of this knowledge base` });
    }
    if (!liveId.has(q.id)) problems.push({ line: i + 1, query: q.id, reason: `no longer in the set "${set.name}", so a fix has nowhere to go` });
  });
  if (problems.length) {
    const first = problems[0]!;
    throw badRequest(
      `${release ? `Release ${release} of` : 'The set'} "${set.name}" cannot be audited: ${problems.length} problem${problems.length > 1 ? 's' : ''}; line ${first.line}, query ${first.query}: ${first.reason}`,
      problems.slice(0, SHOWN_PROBLEMS).map((p) => ({ file: set.name, line: p.line, field: `query ${p.query}`, reason: p.reason })));
  }
  return queries.map((q) => ({ ...q, queryId: liveId.get(q.id)! }));
}

/**
 * Creates an audit of a query set (or of one of its releases): one item per query, holding the query and its
 * answers as they are now, handed to `annotatorsPerSeed` annotators each; approved fixes edit the live set.
 * One transaction: a set with any unusable query creates nothing.
 */
export async function createAuditCampaign(db: Database, kbId: number, set: QuerySetSummary, input: AuditCampaignInput, userId: number | null): Promise<CreatedAuditCampaign> {
  return inTransaction(db, async (client) => {
    const queries = await auditableQueries(client, kbId, set, input.release);
    const { release, ...campaign } = input;
    const created = await insertCampaign(client, kbId, { ...campaign, querySet: set.name, leakPolicy: 'warn', bm25Target: null }, {
      kind: 'audit',
      seeds: queries.map((q, i) => ({ entityId: -(i + 1), queryId: q.queryId })),
      setDescription: '',
      audit: { audits: set.name, release: release ?? null },
    }, userId);
    await client.query('UPDATE campaign SET audit_release = $2 WHERE id = $1', [created.id, release ?? null]);
    await client.query(
      `INSERT INTO audit_item (campaign_id, unit, query_id, external_id, text, answer_ids, seed_ids, split, origin)
       SELECT $1, -n::int, q, x, t, (SELECT coalesce(array_agg(v ORDER BY k), '{}') FROM jsonb_array_elements_text(a) WITH ORDINALITY e(v, k)),
              (SELECT coalesce(array_agg(v ORDER BY k), '{}') FROM jsonb_array_elements_text(s) WITH ORDINALITY e(v, k)), sp, o
         FROM unnest($2::int[], $3::text[], $4::text[], $5::jsonb[], $6::jsonb[], $7::text[], $8::text[]) WITH ORDINALITY AS i(q, x, t, a, s, sp, o, n)`,
      [created.id, queries.map((q) => q.queryId), queries.map((q) => q.id), queries.map((q) => q.text),
        queries.map((q) => JSON.stringify(q.answers)), queries.map((q) => JSON.stringify(q.seeds)), queries.map((q) => q.split),
        queries.map((q) => queryOrigin(q.metadata, set.origin))]);
    return { id: created.id, items: queries.length };
  });
}
