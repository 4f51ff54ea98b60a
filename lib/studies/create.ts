import { z } from 'zod';
import { idSchema } from '../input';
import { badRequest, conflict } from '../errors';
import { auditSql, inTransaction, type Database, type Queryable } from '../db/transaction';
import { setNameSchema } from '../queries/sets';
import { DEFAULT_DIMENSIONS, dimensionsSchema, invalidAnswer, type Dimension } from './dimensions';
import { hashToken, newToken } from './tokens';

export const DEFAULT_INSTRUCTIONS = `# Rating queries

You will see a series of search queries, one at a time. Each was written to find entities of a knowledge base.
Rate each query on every scale below it. There are no right or wrong answers: we want your own judgement.

- **Naturalness**: does it read like something a real person would write?
- **Diversity**: does it differ from the other queries you have seen, in what it asks and how?
- **Practicality**: would someone need this in practice?

Use the number keys to choose a point on the focused scale, Tab to move between scales, and Enter for the
next query. Your answers are saved as you go; you can stop at any time and come back through the same link.
`;

const sourceSchema = z.object({
  querySet: setNameSchema,
  /** A release number of the set: its frozen queries instead of the live set. */
  release: idSchema.optional(),
  /** At most this many queries of the source (a seeded sample); all when absent. */
  sample: z.number().int().min(1).max(100_000).optional(),
}).strict();

const attentionSchema = z.object({
  text: z.string().trim().min(1).max(1000),
  dimension: z.string().max(40),
  /** The values an attentive participant gives, e.g. [1] for "Please choose 1 on naturalness". */
  accept: z.array(z.number().int()).min(1).max(20),
}).strict();

export const studyInputSchema = z.object({
  name: setNameSchema,
  instructions: z.string().max(50_000).default(DEFAULT_INSTRUCTIONS),
  consent: z.string().max(50_000).default(''),
  dimensions: dimensionsSchema.default(DEFAULT_DIMENSIONS),
  sources: z.array(sourceSchema).min(1).max(10),
  itemsPerParticipant: z.number().int().min(1).max(10_000),
  participantsPerItem: z.number().int().min(1).max(1000),
  showAnswers: z.boolean().default(false),
  /** Whether a participant who has finished may still change their answers while the study is open. */
  allowEditsAfterFinish: z.boolean().default(false),
  seed: z.number().int().min(0).max(2 ** 31 - 1).default(0),
  attentionChecks: z.array(attentionSchema).max(20).default([]),
  opensAt: z.iso.datetime({ offset: true }).nullable().default(null),
  closesAt: z.iso.datetime({ offset: true }).nullable().default(null),
  /** Whether the study has a link that issues anonymous participants. */
  studyLink: z.boolean().default(true),
  open: z.boolean().default(false),
}).strict();
export type StudyInput = z.input<typeof studyInputSchema>;

export interface CreatedStudy {
  id: number;
  items: number;
  attentionChecks: number;
  /** The study link's secret, shown once; null without a study link. */
  linkToken: string | null;
}

interface SourceQuery {
  external_id: string;
  text: string;
  answer_names: string[];
}

/** Answer names shown to participants are capped: a query with hundreds of answers shows the first ones. */
const SHOWN_ANSWERS = 10;

/**
 * Creates a study and snapshots its items, in one transaction: each source's queries (all, or a seeded
 * sample) mixed in a seeded order that hides where they came from, then the attention checks.
 */
export async function createStudy(db: Database, kbId: number, raw: StudyInput, userId: number | null): Promise<CreatedStudy> {
  const input = studyInputSchema.parse(raw);
  checkAttention(input.dimensions, input.attentionChecks);
  if (input.opensAt && input.closesAt && Date.parse(input.closesAt) <= Date.parse(input.opensAt)) throw badRequest('closesAt: must be after opensAt');
  return inTransaction(db, async (client) => {
    const taken = await client.query('SELECT 1 FROM study WHERE kb_id = $1 AND name = $2', [kbId, input.name]);
    if (taken.rows.length) throw conflict(`A study named "${input.name}" exists on this knowledge base`);
    const linkToken = input.studyLink ? newToken() : null;
    const { rows: [study] } = await client.query<{ id: number }>(
      `INSERT INTO study (kb_id, name, instructions, consent, dimensions, status, opens_at, closes_at, items_per_participant,
                          participants_per_item, show_answers, allow_edits_after_finish, seed, link_hash, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
      [kbId, input.name, input.instructions, input.consent, JSON.stringify(input.dimensions), input.open ? 'OPEN' : 'DRAFT', input.opensAt, input.closesAt,
        input.itemsPerParticipant, input.participantsPerItem, input.showAnswers, input.allowEditsAfterFinish, input.seed, linkToken && hashToken(linkToken), userId]);
    const id = study!.id;

    let items = 0;
    for (const [index, source] of input.sources.entries()) {
      const { label, querySetId, releaseId, queries } = await readSource(client, kbId, source, input.seed, `sources.${index}`);
      if (!queries.length) throw badRequest(`sources.${index}: ${label} has no queries`);
      // Final positions are given below, once every source is in; these negative ones only need to be distinct.
      await client.query(
        `INSERT INTO study_item (study_id, position, source, query_set_id, release_id, query_external_id, text, answer_names)
         SELECT $1, -($2::int + q.n + 1), $3, $4, $5, q.external_id, q.text, q.answer_names
           FROM jsonb_to_recordset($6::jsonb) AS q(external_id text, text text, answer_names text[], n int)`,
        [id, items, label, querySetId, releaseId, JSON.stringify(queries.map((q, n) => ({ ...q, n })))]);
      items += queries.length;
    }
    // A seeded order, the same for the same seed, that mixes the sources blind.
    await client.query(
      `UPDATE study_item i SET position = o.p FROM (
         SELECT id, row_number() OVER (ORDER BY md5($2::text || ':' || source || ':' || query_external_id)) - 1 AS p FROM study_item WHERE study_id = $1
       ) o WHERE i.id = o.id`, [id, input.seed]);
    for (const [n, check] of input.attentionChecks.entries()) {
      await client.query(
        `INSERT INTO study_item (study_id, position, source, text, attention) VALUES ($1, $2, 'attention check', $3, $4)`,
        [id, items + n, check.text, JSON.stringify({ dimension: check.dimension, accept: check.accept })]);
    }
    await auditSql(client, { userId, action: 'study.create', targetType: 'study', targetId: id, kbId, details: { name: input.name, items, sources: input.sources.length } });
    return { id, items, attentionChecks: input.attentionChecks.length, linkToken };
  });
}

function checkAttention(dimensions: Dimension[], checks: z.infer<typeof attentionSchema>[]): void {
  for (const [n, check] of checks.entries()) {
    const d = dimensions.find((x) => x.key === check.dimension);
    if (!d || d.kind === 'text') throw badRequest(`attentionChecks.${n}.dimension: "${check.dimension}" is not a scale or binary dimension of the study`);
    const wrong = check.accept.map((value) => invalidAnswer(d, { value })).find(Boolean);
    if (wrong) throw badRequest(`attentionChecks.${n}.accept: ${wrong}`);
  }
}

async function readSource(client: Queryable, kbId: number, source: z.infer<typeof sourceSchema>, seed: number, where: string) {
  const { rows: [set] } = await client.query<{ id: number }>('SELECT id FROM query_set WHERE kb_id = $1 AND name = $2', [kbId, source.querySet]);
  if (!set) throw badRequest(`${where}.querySet: no query set "${source.querySet}" in this knowledge base`);
  let releaseId: number | null = null;
  if (source.release !== undefined) {
    const { rows: [release] } = await client.query<{ id: number }>('SELECT id FROM query_release WHERE set_id = $1 AND number = $2', [set.id, source.release]);
    if (!release) throw badRequest(`${where}.release: "${source.querySet}" has no release ${source.release}`);
    releaseId = release.id;
  }
  const table = releaseId === null ? 'query q WHERE q.set_id = $1' : 'release_query q WHERE q.release_id = $1';
  const { rows: queries } = await client.query<SourceQuery>(
    `SELECT q.external_id, q.text,
            ARRAY(SELECT e.name FROM unnest(q.answer_ids[1:${SHOWN_ANSWERS}]) WITH ORDINALITY a(ext, n)
                    JOIN entity e ON e.kb_id = $2 AND e.external_id = a.ext ORDER BY a.n) AS answer_names
       FROM ${table}
      ORDER BY md5($3::text || ':' || q.external_id) LIMIT $4`,
    [releaseId ?? set.id, kbId, seed, source.sample ?? null]);
  return { label: releaseId === null ? source.querySet : `${source.querySet}@${source.release}`, querySetId: set.id, releaseId, queries };
}
