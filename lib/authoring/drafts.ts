import { z } from 'zod';
import { badRequest, conflict } from '../errors';
import { idSchema } from '../input';
import { inTransaction, type Database, type Queryable } from '../db/transaction';
import { extendLease, lockOwnActive, refuseAudit } from './assignments';
import { findLeaks, type LeakMatch } from './leak';

export const MAX_QUERY_LENGTH = 1000;

/** A highlighted passage of the seed's document: a textual requirement. */
export const textSpanSchema = z.object({
  field: z.string().min(1).max(200),
  start: z.number().int().min(0),
  end: z.number().int().min(0),
  quote: z.string().max(5000),
}).strict().refine((s) => s.end > s.start, { message: 'end must be after start' });

export interface DraftInput {
  text: string;
  /** The relational requirement as built in the metapath tool; stored as given. */
  requirement?: unknown;
  textSpans?: z.infer<typeof textSpanSchema>[];
  /** The version the editor last saved or loaded (0 before the first save). */
  version: number;
}

export interface SavedDraft {
  version: number;
  leaks: LeakMatch[];
  leaseExpiresAt: string;
}

/** The seed's name and aliases, which the query must not contain. */
export async function seedNames(db: Queryable, kbId: number, entityId: number): Promise<string[]> {
  const { rows } = await db.query<{ name: string; aliases: string[] }>('SELECT name, aliases FROM entity WHERE kb_id = $1 AND id = $2', [kbId, entityId]);
  return rows[0] ? [rows[0].name, ...rows[0].aliases] : [];
}

/**
 * Saves the draft and renews the lease, in one transaction. Refused (409, nothing written) when the draft
 * was saved elsewhere since `version`, so a second tab or a stale retry never overwrites newer text; the
 * message names the newer version. Leaks are reported with every save; whether they block is for submit.
 */
export async function saveDraft(db: Database, assignmentId: number, annotatorId: number, input: DraftInput): Promise<SavedDraft> {
  if (input.text.length > MAX_QUERY_LENGTH) throw badRequest(`text: at most ${MAX_QUERY_LENGTH} characters (got ${input.text.length})`);
  return inTransaction(db, async (client) => {
    const a = await lockOwnActive(client, assignmentId, annotatorId);
    refuseAudit(a.kind, 'it has no query text to write; judge its answers and flag the query instead');
    const current = await client.query<{ version: number }>('SELECT version FROM query_draft WHERE assignment_id = $1', [assignmentId]);
    const stored = current.rows[0]?.version ?? 0;
    if (stored !== input.version) {
      throw conflict(`The draft was saved elsewhere (version ${stored}; this editor had version ${input.version}). Reload to see it before saving again.`);
    }
    const { rows } = await client.query<{ version: number }>(
      `INSERT INTO query_draft (assignment_id, text, requirement, text_spans) VALUES ($1, $2, $3, $4)
       ON CONFLICT (assignment_id) DO UPDATE SET text = EXCLUDED.text, requirement = EXCLUDED.requirement, text_spans = EXCLUDED.text_spans,
              version = query_draft.version + 1, updated_at = now()
       RETURNING version`,
      [assignmentId, input.text, input.requirement === undefined ? null : JSON.stringify(input.requirement), JSON.stringify(input.textSpans ?? [])]);
    const leaseExpiresAt = await extendLease(client, assignmentId, a);
    // A validated query names its seed by design: no leak to report.
    const leaks = a.kind === 'validation' ? [] : findLeaks(input.text, await seedNames(client, a.kb_id, a.entity_id));
    return { version: rows[0]!.version, leaks, leaseExpiresAt };
  });
}

export const JUDGMENT_LABELS = ['relevant', 'not_relevant', 'unsure'] as const;
export type JudgmentLabel = (typeof JUDGMENT_LABELS)[number];

/** Evidence for a judgment: an edge of the knowledge base, or a passage of an entity's document. */
export const evidenceSchema = z.union([
  z.object({ kind: z.literal('edge'), source: idSchema, relation: z.string().min(1).max(200), target: idSchema }).strict(),
  z.object({ kind: z.literal('span'), entity: idSchema, field: z.string().min(1).max(200), start: z.number().int().min(0), end: z.number().int().min(0), quote: z.string().max(5000) }).strict(),
]);
export type Evidence = z.infer<typeof evidenceSchema>;

export interface JudgmentInput {
  entityId: number;
  label: JudgmentLabel;
  evidence?: Evidence[];
  /** The version the judge saw (0 for a first judgment); a mismatch is a 409, as for drafts. */
  version: number;
}

/**
 * Refuses evidence that does not exist in the knowledge base (a 400 naming the item): an edge must be one of its
 * edges, a span's entity one of its entities, so a judgment never cites another knowledge base's data.
 */
async function checkEvidence(db: Queryable, kbId: number, evidence: Evidence[]): Promise<void> {
  if (!evidence.length) return;
  const edges = evidence.flatMap((e, i) => (e.kind === 'edge' ? [{ i, ...e }] : []));
  const spans = evidence.flatMap((e, i) => (e.kind === 'span' ? [{ i, ...e }] : []));
  const { rows } = await db.query<{ i: number }>(
    `SELECT x.i FROM unnest($2::int[], $3::int[], $4::text[], $5::int[]) AS x(i, source, relation, target)
      WHERE NOT EXISTS (SELECT 1 FROM edge e JOIN edge_type t ON t.id = e.type_id
                         WHERE e.kb_id = $1 AND e.source_id = x.source AND t.kb_id = $1 AND t.name = x.relation AND e.target_id = x.target)
     UNION ALL
     SELECT y.i FROM unnest($6::int[], $7::int[]) AS y(i, entity)
      WHERE NOT EXISTS (SELECT 1 FROM entity n WHERE n.kb_id = $1 AND n.id = y.entity)
     ORDER BY 1 LIMIT 1`,
    [kbId, edges.map((e) => e.i), edges.map((e) => e.source), edges.map((e) => e.relation), edges.map((e) => e.target), spans.map((s) => s.i), spans.map((s) => s.entity)]);
  const bad = rows[0] && evidence[rows[0].i]!;
  if (!bad) return;
  throw badRequest(bad.kind === 'edge'
    ? `evidence.${rows[0]!.i}: ${bad.source} -[${bad.relation}]-> ${bad.target} is not an edge of this campaign's knowledge base`
    : `evidence.${rows[0]!.i}.entity: ${bad.entity} is not an entity of this campaign's knowledge base`);
}

/** Records a judgment of one candidate. The entity and the evidence must belong to the campaign's knowledge base. */
export async function judge(db: Database, assignmentId: number, annotatorId: number, input: JudgmentInput): Promise<{ version: number }> {
  return inTransaction(db, async (client) => {
    const a = await lockOwnActive(client, assignmentId, annotatorId);
    const known = await client.query('SELECT 1 FROM entity WHERE kb_id = $1 AND id = $2', [a.kb_id, input.entityId]);
    if (!known.rows.length) throw badRequest(`entityId: ${input.entityId} is not an entity of this campaign's knowledge base`);
    await checkEvidence(client, a.kb_id, input.evidence ?? []);
    const current = await client.query<{ version: number }>('SELECT version FROM judgment WHERE assignment_id = $1 AND entity_id = $2', [assignmentId, input.entityId]);
    const stored = current.rows[0]?.version ?? 0;
    if (stored !== input.version) throw conflict(`Entity ${input.entityId} was judged elsewhere since (version ${stored}; you had version ${input.version}). Reload to see the judgment.`);
    const { rows } = await client.query<{ version: number }>(
      `INSERT INTO judgment (assignment_id, entity_id, label, evidence) VALUES ($1, $2, $3, $4)
       ON CONFLICT (assignment_id, entity_id) DO UPDATE SET label = EXCLUDED.label, evidence = EXCLUDED.evidence, version = judgment.version + 1, updated_at = now()
       RETURNING version`, [assignmentId, input.entityId, input.label, JSON.stringify(input.evidence ?? [])]);
    await extendLease(client, assignmentId, a);
    return { version: rows[0]!.version };
  });
}
