import { z } from 'zod';
import { badRequest } from '../errors';
import { inTransaction, type Database, type Queryable } from '../db/transaction';
import type { QuerySetSummary } from '../queries/sets';
import { readTemplateKey } from '../synthesis/template-key';
import type { Provenance } from '../synthesis/types';
import { campaignInputSchema, insertCampaign, type SeedRow } from './campaigns';
import type { JudgmentLabel } from './drafts';

/** The guidelines of a validation campaign: check a query made elsewhere rather than write one. */
export const VALIDATION_GUIDELINES = `# Validating a query about a seed entity

The query in your editor was made elsewhere (synthesized from the knowledge base, or imported). Its seed is
the entity the query starts from; the query may name it. Your job is to make the query right and its answers
exact.

1. **Read the query.** Correct it where it is unnatural, ambiguous or wrong about the seed; keep its meaning.
2. **Check the relational requirement** the editor starts with. The candidates are the entities it reaches.
3. **Judge the answers.** The answers the synthesis kept are listed as *suggestions*, and the ones its filter
   removed with the filter's reason. A suggestion is not a judgment: accept it only when the entity's document
   and relations support it, or judge the entity yourself. Only your judgments count.
4. If the query cannot be made right, **skip** it and say why.
`;

export const validationCampaignInputSchema = campaignInputSchema.omit({ leakPolicy: true }).extend({
  guidelines: z.string().max(50_000).default(VALIDATION_GUIDELINES),
  annotatorsPerSeed: z.number().int().min(1).max(20).default(1),
});
export type ValidationCampaignInput = z.infer<typeof validationCampaignInputSchema>;

export interface LeftOutQuery {
  /** The query's id in its set. */
  id: string;
  reason: string;
}

export interface CreatedValidationCampaign {
  id: number;
  seeds: number;
  leftOut: LeftOutQuery[];
}

/**
 * The seeds of a validation campaign: each query's first seed, in the set's order. A seed is handed out for
 * one query only (a campaign's seeds are distinct), so later queries on a seed already taken are left out,
 * as are queries without a seed in this knowledge base; each left-out query is reported with why.
 */
async function seedsOfSet(db: Queryable, kbId: number, setId: number): Promise<{ seeds: SeedRow[]; leftOut: LeftOutQuery[] }> {
  const { rows } = await db.query<{ id: number; externalId: string; seed: string | null; entityId: number | null }>(
    `SELECT q.id, q.external_id AS "externalId", q.seed_ids[1] AS seed, e.id AS "entityId"
       FROM query q LEFT JOIN entity e ON e.kb_id = $2 AND e.external_id = q.seed_ids[1]
      WHERE q.set_id = $1 ORDER BY q.position`, [setId, kbId]);
  const seeds: SeedRow[] = [];
  const leftOut: LeftOutQuery[] = [];
  const takenBy = new Map<number, string>();
  for (const r of rows) {
    const earlier = r.entityId === null ? undefined : takenBy.get(r.entityId);
    if (r.seed === null) leftOut.push({ id: r.externalId, reason: 'the query has no seed' });
    else if (r.entityId === null) leftOut.push({ id: r.externalId, reason: `its seed "${r.seed}" is not an entity of this knowledge base` });
    else if (earlier !== undefined) leftOut.push({ id: r.externalId, reason: `its seed "${r.seed}" is validated through query ${earlier}` });
    else {
      takenBy.set(r.entityId, r.externalId);
      seeds.push({ entityId: r.entityId, queryId: r.id });
    }
  }
  return { seeds, leftOut };
}

/**
 * Creates a campaign that validates the queries of `source` (a synthesized set, or any set whose queries have
 * seeds): one seed per query, approved queries going to `input.querySet`, a new set of origin human. The
 * query names its seed by design, so the campaign only warns about that (and the workspace does not).
 */
export async function createValidationCampaign(db: Database, kbId: number, source: QuerySetSummary, input: ValidationCampaignInput, userId: number | null): Promise<CreatedValidationCampaign> {
  if (input.querySet === source.name) throw badRequest(`querySet: approved queries need a set of their own, not "${source.name}" which is being validated`);
  return inTransaction(db, async (client) => {
    const { seeds, leftOut } = await seedsOfSet(client, kbId, source.id);
    if (!seeds.length) throw badRequest(`querySet: no query of "${source.name}" has a seed in this knowledge base; nothing to validate`);
    const created = await insertCampaign(client, kbId, { ...input, leakPolicy: 'warn' }, {
      kind: 'validation', seeds,
      setDescription: `Queries of ${source.name} validated in the campaign ${input.name}.`,
      audit: { source: source.name, leftOut: leftOut.length },
    }, userId);
    return { id: created.id, seeds: created.seeds, leftOut };
  });
}

/**
 * The requirement a validation draft starts with, in the metapath tool's format: each branch of the
 * query's template from its seed entity. Null when the query has no template, or its seeds do not match the
 * template's start types in this knowledge base (the annotator then builds it).
 */
async function requirementOf(db: Queryable, kbId: number, provenance: Provenance | null, seedIds: string[]) {
  const branches = provenance?.template?.key ? readTemplateKey(provenance.template.key) : null;
  if (!branches || branches.length > seedIds.length) return null;
  const { rows } = await db.query<{ externalId: string; id: number; type: string }>(
    `SELECT e.external_id AS "externalId", e.id, t.name AS type FROM entity e JOIN node_type t ON t.id = e.type_id
      WHERE e.kb_id = $1 AND e.external_id = ANY($2::text[])`, [kbId, seedIds]);
  const paths = branches.map((b, i) => {
    const seed = rows.find((r) => r.externalId === seedIds[i]);
    return seed && seed.type === b.startType ? { start: { entity: seed.id }, steps: b.steps } : null;
  });
  return paths.every((p) => p !== null) ? { paths } : null;
}

/**
 * Starts the draft of a new assignment of a validation campaign from the query it validates: its text and,
 * when it was synthesized from a template, the relational requirement. Written when the seed is claimed, so
 * the draft is saved (and can be submitted unchanged) before the annotator types anything. Other campaigns'
 * assignments, and assignments that already have a draft, are left alone.
 */
export async function prefillValidationDraft(db: Queryable, assignment: { id: number; campaignId: number; entityId: number }): Promise<void> {
  const { rows: [q] } = await db.query<{ kbId: number; text: string; seedIds: string[]; synthesis: Provenance | null }>(
    `SELECT c.kb_id AS "kbId", q.text, q.seed_ids AS "seedIds", q.metadata->'synthesis' AS synthesis
       FROM campaign_seed s JOIN campaign c ON c.id = s.campaign_id JOIN query q ON q.id = s.query_id
      WHERE s.campaign_id = $1 AND s.entity_id = $2 AND c.kind = 'validation'`, [assignment.campaignId, assignment.entityId]);
  if (!q) return;
  const requirement = await requirementOf(db, q.kbId, q.synthesis, q.seedIds);
  await db.query(
    `INSERT INTO query_draft (assignment_id, text, requirement) VALUES ($1, $2, $3) ON CONFLICT (assignment_id) DO NOTHING`,
    [assignment.id, q.text, requirement && JSON.stringify(requirement)]);
}

/** An answer the validated query came with, offered to the annotator; it becomes a judgment only when accepted. */
export interface Suggestion {
  entityId: number;
  externalId: string;
  name: string;
  type: string;
  label: Extract<JudgmentLabel, 'relevant' | 'not_relevant'>;
  /** "synthesis": the synthesis filter kept or removed it; "set": one of the query's answers in its set. */
  source: 'synthesis' | 'set';
  /** Why the filter removed it (not-relevant suggestions). */
  reason: string | null;
}

/**
 * The suggestions of an assignment of a validation campaign: the validated query's kept answers as relevant
 * and the candidates its filter removed as not relevant with the filter's reason (for a query that was not
 * synthesized, its answers as relevant). Empty for other campaigns, or once the query is deleted.
 */
export async function suggestionsFor(db: Queryable, assignmentId: number, kbId: number): Promise<Suggestion[]> {
  const { rows: [q] } = await db.query<{ answerIds: string[]; synthesis: Provenance | null }>(
    `SELECT q.answer_ids AS "answerIds", q.metadata->'synthesis' AS synthesis
       FROM assignment a JOIN campaign_seed s ON s.campaign_id = a.campaign_id AND s.entity_id = a.entity_id
       JOIN query q ON q.id = s.query_id WHERE a.id = $1`, [assignmentId]);
  if (!q) return [];
  const synthesized = Array.isArray(q.synthesis?.kept);
  const kept = synthesized ? q.synthesis!.kept : q.answerIds;
  const removed = synthesized && Array.isArray(q.synthesis!.removed) ? q.synthesis!.removed : [];
  const ids = [...kept, ...removed.map((r) => r.id)];
  const { rows } = await db.query<{ externalId: string; entityId: number; name: string; type: string }>(
    `SELECT e.external_id AS "externalId", e.id AS "entityId", e.name, t.name AS type
       FROM entity e JOIN node_type t ON t.id = e.type_id WHERE e.kb_id = $1 AND e.external_id = ANY($2::text[])`, [kbId, ids]);
  const byId = new Map(rows.map((r) => [r.externalId, r]));
  const source = synthesized ? 'synthesis' : 'set';
  const listed = new Set<string>();
  const suggestions: Suggestion[] = [];
  // An id both kept and removed (malformed provenance) is suggested as kept, once.
  for (const [id, label, reason] of [
    ...kept.map((id) => [id, 'relevant', null] as const),
    ...removed.map((r) => [r.id, 'not_relevant', r.reason] as const),
  ]) {
    const entity = byId.get(id);
    if (!entity || listed.has(id)) continue;
    listed.add(id);
    suggestions.push({ ...entity, label, source, reason });
  }
  return suggestions;
}
