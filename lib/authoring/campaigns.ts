import { z } from 'zod';
import { idSchema } from '../input';
import { badRequest, conflict } from '../errors';
import { auditSql, inTransaction, type Database, type Queryable } from '../db/transaction';
import { setNameSchema } from '../queries/sets';
import { sampleSeeds, type SeedSampling } from './seeds';

/** The default guidelines: the procedure STaRK gave its query authors, in this project's words. */
export const DEFAULT_GUIDELINES = `# Writing a query about a seed entity

You are given one entity of the knowledge base, the **seed**. Your query must be one that the seed answers.

1. **Study the seed.** Read its document, then its relations: who or what it is connected to, and the
   multi-hop paths that lead from it. Use the graph and metapath tools.
2. **Write a natural question** a real user could ask, combining at least one *relational* requirement (a
   connection to other entities, such as "a drug that targets a gene expressed in the liver") and at least one
   *textual* requirement (something only the documents say).
3. **Do not name the seed.** The query must not contain the seed's name or aliases; the editor warns you.
4. **Record the requirements**: build the relational pattern in the metapath tool and highlight the passages
   of the document your textual requirement comes from.
5. **Validate the answers.** Every entity that satisfies the pattern is a candidate. Judge each one: relevant,
   not relevant or unsure, and cite the evidence for the relevant ones. The seed must be among the answers.
6. If the seed gives you nothing to ask, **skip** it and say why.
`;

export const campaignInputSchema = z.object({
  name: setNameSchema,
  guidelines: z.string().max(50_000).default(DEFAULT_GUIDELINES),
  annotatorsPerSeed: z.number().int().min(1).max(20),
  leaseMinutes: z.number().int().min(1).max(10_080).default(60),
  leakPolicy: z.enum(['warn', 'block']).default('warn'),
  /** Warn (never block) when BM25 ranks the seed or an answer within its top N; null or absent: no target. */
  bm25Target: z.number().int().min(1).max(100).nullable().optional(),
  /** The query set approved queries go to; created (origin human) when it does not exist. */
  querySet: setNameSchema,
  annotatorIds: z.array(idSchema).min(1).max(1000),
  open: z.boolean().default(true),
});
export type CampaignInput = z.infer<typeof campaignInputSchema>;

export interface CreatedCampaign {
  id: number;
  seeds: number;
  annotators: number;
  querySetId: number;
}

/** Annotators named by email, as the campaign forms send them: lower-cased, each a valid address. */
export const annotatorEmailsSchema = z.array(z.string().trim().toLowerCase().email().max(320)).min(1).max(1000);

/** Annotators as a campaign made from a query set names them: by id (API clients), by email (the forms' picker), or both. */
export const annotatorFields = {
  annotatorIds: z.array(idSchema).min(1).max(1000).optional(),
  annotators: annotatorEmailsSchema.optional(),
};
export const annotatorsNamed: [(b: { annotatorIds?: number[]; annotators?: string[] }) => boolean, { message: string; path: string[] }] = [
  (b) => Boolean(b.annotatorIds || b.annotators), { message: 'name the annotators (annotatorIds or annotators by email)', path: ['annotatorIds'] }];

/** The ids of the annotators named by id or by email, each once. */
export async function annotatorIdsOf(db: Queryable, named: { annotatorIds?: number[]; annotators?: string[] }): Promise<number[]> {
  const byEmail = named.annotators ? await annotatorIdsByEmail(db, named.annotators) : [];
  return [...new Set([...(named.annotatorIds ?? []), ...byEmail])];
}

/** The ids of the users with these emails; 400 naming the emails no user has. */
export async function annotatorIdsByEmail(db: Queryable, emails: string[]): Promise<number[]> {
  const { rows } = await db.query<{ id: number; email: string }>('SELECT id, email FROM app_user WHERE email = ANY($1::text[])', [emails]);
  const unknown = emails.filter((e) => !rows.some((u) => u.email === e));
  if (unknown.length) throw badRequest(`annotators: no user with the email ${unknown.join(', ')}`);
  return rows.map((u) => u.id);
}

/** A seed in hand-out order; `queryId` names the query a validation campaign asks to validate for it. */
export interface SeedRow {
  entityId: number;
  queryId: number | null;
}

/** Authoring writes queries about seeds; validation checks a set's queries by their seeds; an audit checks a set's queries and answers, item by item. */
export type CampaignKind = 'authoring' | 'validation' | 'audit';

/**
 * Creates a campaign with its seeds, annotators and target query set, in one transaction. Seeds that cannot
 * be read (a list naming unknown entities) fail the whole creation with their lines.
 */
export async function createCampaign(db: Database, kbId: number, input: CampaignInput, seeds: SeedSampling, userId: number | null): Promise<CreatedCampaign> {
  const sampled = await sampleSeeds(db, kbId, seeds);
  if (sampled.issues.length) throw badRequest(`The seed list has ${sampled.issues.length} problem${sampled.issues.length > 1 ? 's' : ''}: ${sampled.issues[0]}`, sampled.issues.map((i) => ({ file: i.file, line: i.line, reason: i.reason })));
  if (!sampled.entityIds.length) throw badRequest('No entity matches the seed sampling');
  return inTransaction(db, (client) => insertCampaign(client, kbId, input, {
    kind: 'authoring', seeds: sampled.entityIds.map((entityId) => ({ entityId, queryId: null })),
    setDescription: `Queries written in the campaign ${input.name}.`, audit: { mode: seeds.mode },
  }, userId));
}

/**
 * Writes a campaign inside the caller's transaction: checks that every annotator is an active annotator,
 * curator or admin who can see the knowledge base, creates the target query set (origin human) when it does
 * not exist, and refuses a name taken on this knowledge base.
 */
export async function insertCampaign(client: Queryable, kbId: number, input: CampaignInput,
  opts: { kind: CampaignKind; seeds: SeedRow[]; setDescription: string; audit: Record<string, unknown> }, userId: number | null): Promise<CreatedCampaign> {
  const users = await client.query<{ id: number; email: string; sees: boolean }>(
    `SELECT u.id, u.email, (u.role = 'ADMIN' OR k.visibility = 'PUBLIC' OR EXISTS (SELECT 1 FROM kb_member m WHERE m.kb_id = k.id AND m.user_id = u.id)) AS sees
       FROM app_user u JOIN knowledge_base k ON k.id = $2
      WHERE u.id = ANY($1::int[]) AND NOT u.disabled AND u.role IN ('ANNOTATOR', 'CURATOR', 'ADMIN')`, [input.annotatorIds, kbId]);
  const missing = input.annotatorIds.filter((id) => !users.rows.some((u) => u.id === id));
  if (missing.length) throw badRequest(`annotatorIds: no active annotator, curator or admin with id ${missing.join(', ')}`);
  const outsiders = users.rows.filter((u) => !u.sees).map((u) => u.email);
  if (outsiders.length) throw badRequest(`annotators: ${outsiders.join(', ')} cannot see this private knowledge base; make them members first`);
  const set = await client.query<{ id: number; kb_id: number }>('SELECT id, kb_id FROM query_set WHERE name = $1', [input.querySet]);
  if (set.rows[0] && set.rows[0].kb_id !== kbId) throw badRequest(`querySet: "${input.querySet}" belongs to another knowledge base`);
  const querySetId = set.rows[0]?.id ?? (await client.query<{ id: number }>(
    `INSERT INTO query_set (kb_id, name, origin, description, created_by) VALUES ($1, $2, 'HUMAN', $3, $4) RETURNING id`,
    [kbId, input.querySet, opts.setDescription, userId])).rows[0]!.id;
  const taken = await client.query('SELECT 1 FROM campaign WHERE kb_id = $1 AND name = $2', [kbId, input.name]);
  if (taken.rows.length) throw conflict(`A campaign named "${input.name}" exists on this knowledge base`);
  const { rows: [campaign] } = await client.query<{ id: number }>(
    `INSERT INTO campaign (kb_id, name, guidelines, status, annotators_per_seed, lease_minutes, leak_policy, bm25_target, query_set_id, created_by, kind)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
    [kbId, input.name, input.guidelines, input.open ? 'OPEN' : 'DRAFT', input.annotatorsPerSeed, input.leaseMinutes, input.leakPolicy, input.bm25Target ?? null, querySetId, userId, opts.kind]);
  const id = campaign!.id;
  await client.query(
    `INSERT INTO campaign_seed (campaign_id, entity_id, query_id, position)
     SELECT $1, e, q, n - 1 FROM unnest($2::int[], $3::int[]) WITH ORDINALITY AS s(e, q, n)`,
    [id, opts.seeds.map((s) => s.entityId), opts.seeds.map((s) => s.queryId)]);
  await client.query(`INSERT INTO campaign_annotator (campaign_id, user_id) SELECT $1, u FROM unnest($2::int[]) AS u`, [id, input.annotatorIds]);
  await auditSql(client, { userId, action: 'campaign.create', targetType: 'campaign', targetId: id, kbId, details: { name: input.name, kind: opts.kind, seeds: opts.seeds.length, ...opts.audit } });
  return { id, seeds: opts.seeds.length, annotators: input.annotatorIds.length, querySetId };
}
