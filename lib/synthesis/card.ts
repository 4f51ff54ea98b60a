import type { Queryable } from '../db/transaction';
import { STAGES, type JobRecord } from './job-store';

/** What the dataset card tells of one synthesis job whose queries are in the release. */
export interface CardJob extends JobRecord {
  templates: string[];
  /** Queries of the job in the set when it was released (some may have been deleted or edited since). */
  inSet: number;
  /** The prompt templates its items were sent with. */
  prompts: { id: string; version: number }[];
}

/** The jobs whose queries are in the set, oldest first, with the prompts their items used. */
export async function synthesisJobsOfSet(db: Queryable, setId: number): Promise<CardJob[]> {
  const { rows } = await db.query<CardJob>(
    `SELECT j.id, j.status, j.created_at AS "createdAt", j.spec, j.templates, j.llm, j.done, j.total, j.attempted, j.summary,
            j.llm_calls AS "llmCalls", j.llm_failures AS "llmFailures", j.tokens_used::float8 AS tokens, m.in_set::int AS "inSet",
            coalesce((SELECT json_agg(DISTINCT jsonb_build_object('id', p->>'id', 'version', (p->>'version')::int))
                        FROM synthesis_item i CROSS JOIN jsonb_array_elements(coalesce(i.outcome->'provenance'->'prompts', '[]')) p
                       WHERE i.job_id = j.id), '[]') AS prompts
       FROM synthesis_job j
       JOIN LATERAL (SELECT count(*) AS in_set FROM synthesis_item i JOIN query q ON q.id = i.query_id WHERE i.job_id = j.id AND q.set_id = $1) m ON m.in_set > 0
      ORDER BY j.id`, [setId]);
  return rows;
}

const TEMPLATES_LISTED = 10;
const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;

function templatesLine(job: CardJob): string {
  const range = Array.isArray(job.spec.templates) ? '' : `every template whose median answer-set size on a sample is ${job.spec.templates.minAnswers}-${job.spec.templates.maxAnswers}: `;
  const shown = job.templates.slice(0, TEMPLATES_LISTED).map(code).join(', ');
  const more = job.templates.length > TEMPLATES_LISTED ? ` and ${job.templates.length - TEMPLATES_LISTED} more` : '';
  return `${range}${job.templates.length} (${shown}${more})`;
}

function jobLines(job: CardJob): string[] {
  const count = (kind: 'dropped' | 'failed', stage: string) => job.summary[kind]?.[stage] ?? 0;
  const models = job.llm
    ? [`| Properties | LLM \`${job.llm.model}\` |`, `| Composition | LLM \`${job.llm.model}\` |`,
      `| Filter | LLM judges ${job.llm.filterModels.map(code).join(', ')}, agreement: ${job.spec.agreement} |`]
    : ['| Properties | deterministic, no LLM: document fields and rarest terms by BM25 idf |', '| Composition | deterministic, no LLM: the template realiser |',
      '| Filter | deterministic, no LLM: term evidence in each candidate\'s document |'];
  const prompts = job.prompts.length ? [...job.prompts].sort((a, b) => a.id.localeCompare(b.id)).map((p) => `${p.id} v${p.version}`).join(', ') : 'none';
  return [
    `### Synthesis job ${job.id} (${job.createdAt.toISOString().slice(0, 10)})`,
    '',
    '| | |',
    '| --- | --- |',
    `| Templates | ${templatesLine(job)} |`,
    `| Seed | ${job.spec.seed} |`,
    ...models,
    `| Prompts | ${prompts} |`,
    `| Answers kept per query | ${job.spec.minAnswers}-${job.spec.maxAnswers} |`,
    `| Outcome | ${job.status.toLowerCase()}: kept ${job.done} of ${job.total} queries asked after ${job.attempted} attempts; ${job.inSet} in this release |`,
    ...(job.llm ? [`| LLM calls | ${job.llmCalls} (${job.llmFailures} failed), ${job.tokens} tokens |`] : []),
    '',
    '| Stage | Dropped | Failed |',
    '| --- | ---: | ---: |',
    ...STAGES.map((s) => `| ${s} | ${count('dropped', s)} | ${count('failed', s)} |`),
  ];
}

/** The dataset card's "How the queries were made": STaRK's pipeline as SKB Studio ran it, per job. */
export function synthesisSection(jobs: CardJob[]): string[] {
  return [
    '## How the queries were made',
    '',
    'The queries were synthesized in SKB Studio with STaRK\'s pipeline. For each attempt a relational template (a metapath ' +
      'between entity types) and its seed entities are chosen reproducibly from the seed below, and the exact set of entities ' +
      'that satisfy the template is computed from the knowledge base\'s edges (relational stage). Textual properties are read ' +
      'from one answer\'s document (properties), a query is written from the template and the properties (composition) and ' +
      'checked not to name any answer (leak), and every candidate answer is checked against the properties; only those that ' +
      'pass are kept as the ground truth (filter). An attempt is dropped at a stage when it gives nothing usable there, and ' +
      'fails there when the LLM did not answer as asked. Each query\'s provenance (template, seeds, properties with their ' +
      'sources, relational and kept answers, votes, LLM call ids) is in its metadata in `queries.jsonl`.',
    ...jobs.flatMap((j) => ['', ...jobLines(j)]),
  ];
}
