import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importKnowledgeBase } from '../../lib/ingest/importer';
import { memorySource } from '../../lib/ingest/memory-source';
import { llmConfig } from '../../lib/llm/config';
import { importQueries } from '../../lib/queries/import';
import { createRelease } from '../../lib/queries/releases';
import { getQuerySet } from '../../lib/queries/sets';
import { getJob, requestCancel } from '../../lib/synthesis/job-store';
import { cancelSynthesisJob, claimForResume, resumeAbandonedJobs, runSynthesisJob, startSynthesisJob } from '../../lib/synthesis/jobs';
import { jobSpecSchema, type JobSpec } from '../../lib/synthesis/spec';
import type { Provenance } from '../../lib/synthesis/types';
import { openAppDatabase, pool } from '../support/app-database';
import { startFakeChatServer, type FakeReply } from '../support/fake-chat-server';
import { plausibleReply } from '../support/plausible-llm';
import { importIbd, readIbdEdges } from '../support/primekg-ibd';
import type { TestDatabase } from '../support/test-database';

/** One-step templates of the IBD fixture, whose answer sets the edge file gives directly. */
const DRUG_TARGETS = 'drug -[target]-> gene/protein';
const DISEASE_GENES = 'disease -[associated with]-> gene/protein';
const NO_LLM = llmConfig({});

const spec = (fields: Partial<JobSpec> & { querySet: string; count: number }): JobSpec =>
  jobSpecSchema.parse({ templates: [DRUG_TARGETS, DISEASE_GENES], useLlm: false, ...fields });

interface StoredQuery {
  external_id: string;
  position: number;
  text: string;
  answer_ids: string[];
  seed_ids: string[];
  metadata: { origin: string; synthesis: Provenance };
}

async function queriesOf(set: string): Promise<StoredQuery[]> {
  return (await pool().query<StoredQuery>(
    `SELECT q.external_id, q.position, q.text, q.answer_ids, q.seed_ids, q.metadata FROM query q JOIN query_set s ON s.id = q.set_id
      WHERE s.name = $1 ORDER BY q.position`, [set])).rows;
}

async function itemsOf(jobId: number): Promise<{ position: number; status: string; stage: string | null; query_id: number | null }[]> {
  return (await pool().query('SELECT position, status, stage, query_id FROM synthesis_item WHERE job_id = $1 ORDER BY position', [jobId])).rows;
}

async function runJob(s: JobSpec): Promise<number> {
  const id = await startSynthesisJob(pool(), kbId, s, null, NO_LLM);
  await runSynthesisJob(pool(), id, { llm: NO_LLM });
  return id;
}

let testDb: TestDatabase;
let kbId: number;
let dir: string;

beforeAll(async () => {
  testDb = await openAppDatabase();
  kbId = await importIbd(pool());
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-synthesis-jobs-'));
}, 180_000);
afterAll(async () => {
  await testDb.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a deterministic synthesis job', () => {
  it('keeps exactly the queries asked, each with its provenance, item and exact relational answers', async () => {
    const id = await runJob(spec({ querySet: 'syn-ibd', count: 8 }));
    const job = await getJob(pool(), kbId, id);
    expect(job).toMatchObject({ status: 'SUCCEEDED', querySet: 'syn-ibd', done: 8, total: 8, message: null, llm: null });
    const s = job.summary;
    const dropped = Object.values(s.dropped).reduce((a, b) => a + b, 0);
    const failed = Object.values(s.failed).reduce((a, b) => a + b, 0);
    expect(s.kept + dropped + failed).toBe(s.attempted);
    expect(s).toMatchObject({ kept: 8, llmCalls: 0, tokens: 0 });

    const set = await pool().query('SELECT origin::text, description FROM query_set WHERE name = $1', ['syn-ibd']);
    expect(set.rows[0].origin).toBe('SYNTHESIZED');
    // Made without an LLM: the set says so.
    expect(set.rows[0].description).toContain('without an LLM');
    const queries = await queriesOf('syn-ibd');
    expect(queries.map((q) => q.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const items = await itemsOf(id);
    expect(items).toHaveLength(job.attempted);
    const keptItems = items.filter((i) => i.status === 'kept');
    expect(keptItems).toHaveLength(8);
    expect(keptItems.every((i) => i.query_id !== null)).toBe(true);

    // The edge file read directly: a one-step template's answers are the seed's neighbours along it.
    const edges = readIbdEdges();
    const neighbours = (seed: string, relation: string, type: string) =>
      [...new Set(edges.filter((e) => e.source === seed && e.relation === relation && e.targetType === type).map((e) => e.target))].sort();
    for (const q of queries) {
      const p = q.metadata.synthesis;
      expect(q.metadata.origin).toBe('synthesized');
      expect(q.external_id).toBe(`syn-${id}-${p.position}`);
      expect(p.jobId).toBe(id);
      expect(q.answer_ids).toEqual(p.kept);
      expect(q.seed_ids).toEqual(p.seeds.map((x) => x.id));
      expect(p.methods).toEqual({ properties: 'extractor', compose: 'realiser', filter: ['term-evidence'] });
      expect(p.properties.length).toBeGreaterThan(0);
      const relation = p.template.key === DRUG_TARGETS ? 'target' : 'associated with';
      expect([...p.relationalAnswers].sort()).toEqual(neighbours(q.seed_ids[0]!, relation, 'gene/protein'));
      expect(p.kept.every((a) => p.relationalAnswers.includes(a))).toBe(true);
      expect(p.kept.length).toBeLessThanOrEqual(20);
    }
    const revisions = await pool().query('SELECT count(*)::int AS n FROM query_revision r JOIN query q ON q.id = r.query_id JOIN query_set s ON s.id = q.set_id WHERE s.name = $1', ['syn-ibd']);
    expect(revisions.rows[0].n).toBe(8);
  });

  it('adds a second job\'s queries after the set\'s existing ones', async () => {
    const id = await runJob(spec({ querySet: 'syn-ibd', count: 3, seed: 7 }));
    const queries = await queriesOf('syn-ibd');
    expect(queries).toHaveLength(11);
    expect(queries.slice(8).map((q) => q.position)).toEqual([8, 9, 10]);
    expect(queries.slice(8).every((q) => q.external_id.startsWith(`syn-${id}-`))).toBe(true);
  });

  it('refuses unknown templates, unknown types and sets that are not synthesized or of another knowledge base', async () => {
    await expect(startSynthesisJob(pool(), kbId, spec({ querySet: 'x1', count: 1, templates: [DRUG_TARGETS, 'drug -[cures]-> gene/protein', 'planet -[target]-> gene/protein'] }), null, NO_LLM))
      .rejects.toMatchObject({ status: 400, message: expect.stringMatching(/"drug -\[cures\]-> gene\/protein": unknown relation "cures".*"planet -\[target\]-> gene\/protein": unknown entity type "planet"/) });
    async function* one() {
      yield { id: 'h1', text: 'a human query', answers: [], seeds: [], split: null, metadata: {}, at: { file: 'h', line: 1 } };
    }
    await importQueries(pool(), one(), { kbId, setName: 'by-hand', origin: 'human', unknownIds: 'keep', userId: null, sourceName: 'h' });
    await expect(startSynthesisJob(pool(), kbId, spec({ querySet: 'by-hand', count: 1 }), null, NO_LLM))
      .rejects.toMatchObject({ status: 400, message: expect.stringContaining('querySet: the query set "by-hand" is of origin human') });
    const other = await importKnowledgeBase(pool(), memorySource({
      entities: [{ externalId: 'd', type: 'drug', name: 'D', aliases: [], document: {} }, { externalId: 'g', type: 'gene/protein', name: 'G', aliases: [], document: {} }],
      edges: [{ source: 'd', relation: 'target', target: 'g' }],
    }), { slug: 'other', format: 'test', files: [] });
    await expect(startSynthesisJob(pool(), other.kbId, spec({ querySet: 'syn-ibd', count: 1, templates: [DRUG_TARGETS] }), null, NO_LLM))
      .rejects.toMatchObject({ status: 400, message: 'querySet: the query set "syn-ibd" belongs to another knowledge base; choose another name' });
    expect(() => jobSpecSchema.parse({ querySet: 'x', templates: [DRUG_TARGETS], count: 0 })).toThrow(/count must be at least 1/);
    const none = await pool().query('SELECT count(*)::int AS n FROM query_set WHERE name = $1', ['x1']);
    expect(none.rows[0].n).toBe(0);
  });

  it('picks every template whose measured median answer-set size is in the range, and ends when their seeds run out', async () => {
    // Each drug targets 3 genes and each gene is targeted by 2 drugs: the templates' answer sets have those sizes.
    const drugs = ['d1', 'd2', 'd3', 'd4'];
    const targets = [['g1', 'g2', 'g3'], ['g2', 'g3', 'g4'], ['g4', 'g5', 'g6'], ['g1', 'g5', 'g6']];
    const small = await importKnowledgeBase(pool(), memorySource({
      entities: [...drugs.map((id) => ({ externalId: id, type: 'drug', name: `drug ${id}`, aliases: [], document: {} })),
        ...['g1', 'g2', 'g3', 'g4', 'g5', 'g6'].map((id) => ({ externalId: id, type: 'gene', name: `gene ${id}`, aliases: [], document: {} }))],
      edges: drugs.flatMap((d, i) => targets[i]!.map((g) => ({ source: d, relation: 'target', target: g }))),
    }), { slug: 'small', format: 'test', files: [] });
    const templatesOf = async (id: number) => (await pool().query<{ templates: string[] }>('SELECT templates FROM synthesis_job WHERE id = $1', [id])).rows[0]!.templates;
    const three = await startSynthesisJob(pool(), small.kbId, spec({ querySet: 'syn-small', count: 1, templates: { minAnswers: 3, maxAnswers: 3 } }), null, NO_LLM);
    expect(await templatesOf(three)).toEqual(['drug -[target]-> gene']);
    const two = await startSynthesisJob(pool(), small.kbId, spec({ querySet: 'syn-small', count: 1, templates: { minAnswers: 1, maxAnswers: 2 } }), null, NO_LLM);
    expect(await templatesOf(two)).toEqual(['gene -[target]<- drug']);
    await expect(startSynthesisJob(pool(), small.kbId, spec({ querySet: 'syn-small', count: 1, templates: { minAnswers: 4, maxAnswers: 10 } }), null, NO_LLM))
      .rejects.toMatchObject({ status: 400, message: 'templates: no template of this knowledge base has a median answer-set size of 4-10 (the first 2 of 2 templates, fewest steps first, measured on 5 seeds each)' });
    // Four drugs, four candidates; the documents are empty, so each is dropped for want of properties.
    const job = await runSynthesisJob(pool(), three, { llm: NO_LLM });
    expect(job).toMatchObject({ status: 'SUCCEEDED', done: 0, attempted: 4, message: 'The templates ran out of seeds: kept 0 of 1 queries after 4 attempts.' });
    await runSynthesisJob(pool(), two, { llm: NO_LLM });
  });
});

describe('stopping and resuming', () => {
  it('stops a cancelled job after the items in hand, and resumes it to exactly the count', async () => {
    const id = await startSynthesisJob(pool(), kbId, spec({ querySet: 'syn-cancel', count: 6 }), null, NO_LLM);
    expect(await requestCancel(pool(), kbId, id)).toBe(true);
    const cancelled = await runSynthesisJob(pool(), id, { llm: NO_LLM });
    expect(cancelled.status).toBe('CANCELLED');
    expect(cancelled.message).toMatch(/^Cancelled: kept \d of 6 queries after [12] attempts\.$/);
    expect(cancelled.attempted).toBeLessThanOrEqual(2);
    const before = await itemsOf(id);

    await claimForResume(pool(), kbId, id);
    const resumed = await runSynthesisJob(pool(), id, { llm: NO_LLM });
    expect(resumed).toMatchObject({ status: 'SUCCEEDED', done: 6, message: null });
    const after = await itemsOf(id);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(await queriesOf('syn-cancel')).toHaveLength(6);
    await expect(claimForResume(pool(), kbId, id)).rejects.toMatchObject({ status: 409 });
  });

  it('cancels a job whose process is gone at once, and resumes it on request', async () => {
    const id = await startSynthesisJob(pool(), kbId, spec({ querySet: 'syn-orphan', count: 2 }), null, NO_LLM);
    // Owned by a process that has ended, as a killed CLI leaves its job.
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
    await pool().query('UPDATE synthesis_job SET owner_pid = $2, owner_start = NULL WHERE id = $1', [id, dead]);
    expect(await cancelSynthesisJob(pool(), kbId, id)).toBe(true);
    expect(await getJob(pool(), kbId, id)).toMatchObject({ status: 'CANCELLED', message: 'Cancelled after its process had stopped: kept 0 of 2 queries after 0 attempts.' });
    expect(await cancelSynthesisJob(pool(), kbId, id)).toBe(false);
    await claimForResume(pool(), kbId, id, NO_LLM);
    expect(await runSynthesisJob(pool(), id, { llm: NO_LLM })).toMatchObject({ status: 'SUCCEEDED', done: 2 });
  });

  it('resumes a job whose process was killed: nothing lost, no position twice, exactly the count', async () => {
    const env = { ...process.env, DATABASE_URL: testDb.url, SKB_DATA_DIR: dir, SKB_LLM_BASE_URL: '' };
    const child = spawn(process.execPath, [path.join(process.cwd(), 'bin', 'skb.mjs'), 'synthesize', '--kb', 'ibd', '--set', 'syn-killed',
      '--templates', `${DRUG_TARGETS},${DISEASE_GENES}`, '--count', '30', '--no-llm', '--json'], { env, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    let jobId = 0;
    try {
      for (let i = 0; i < 1200 && !jobId; i++) {
        const { rows } = await pool().query<{ id: number }>(
          `SELECT j.id FROM synthesis_job j WHERE j.set_name = 'syn-killed' AND (SELECT count(*) FROM synthesis_item i WHERE i.job_id = j.id) >= 3`);
        if (rows[0]) jobId = rows[0].id;
        else await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    expect(jobId).toBeGreaterThan(0);
    const killed = await getJob(pool(), kbId, jobId);
    expect(killed.status).toBe('RUNNING');
    expect(killed.done).toBeLessThan(30);
    const before = await itemsOf(jobId);
    expect(before.length).toBe(killed.attempted);
    expect((await queriesOf('syn-killed')).length).toBe(killed.done);

    expect(await resumeAbandonedJobs(pool())).toEqual([jobId]);
    let job = killed;
    for (let i = 0; i < 600 && job.status === 'RUNNING'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = await getJob(pool(), kbId, jobId);
    }
    expect(job).toMatchObject({ status: 'SUCCEEDED', done: 30 });
    const after = await itemsOf(jobId);
    expect(after).toHaveLength(job.attempted);
    // What the killed process wrote is still there, unchanged.
    for (const item of before) expect(after).toContainEqual(item);
    const queries = await queriesOf('syn-killed');
    expect(queries).toHaveLength(30);
    expect(new Set(queries.map((q) => q.external_id)).size).toBe(30);
    expect(queries.map((q) => q.position)).toEqual([...Array(30).keys()]);
    expect(new Set(after.filter((i) => i.status === 'kept').map((i) => i.query_id)).size).toBe(30);
  }, 120_000);
});

const llmEnv = (baseUrl: string) => llmConfig({
  SKB_LLM_BASE_URL: baseUrl, SKB_LLM_MODEL: 'writer', SKB_LLM_FILTER_MODELS: 'judge-a,judge-b', SKB_LLM_CONCURRENCY: '4',
  SKB_LLM_TIMEOUT_MS: '400', SKB_LLM_MAX_RETRIES: '1',
});

describe('a synthesis job with an LLM', () => {
  it('goes on through 429s, malformed answers and timeouts, failing those items at their stage and counting each outcome', async () => {
    // Some properties requests hang and some compose requests get malformed answers, each every time it is asked.
    const faulty = new Map<string, FakeReply>();
    const seen = { properties: 0, compose: 0 };
    const fake = await startFakeChatServer(({ messages, n }) => {
      const system = messages[0]!.content;
      const user = messages.find((m) => m.role === 'user')!.content;
      // Every fifth request is throttled; the retry (after Retry-After: 0) is answered.
      if (n % 5 === 1) return { status: 429, headers: { 'retry-after': '0' } };
      const fault = faulty.get(user);
      if (fault) return fault;
      if (system.includes('(Prompt synthesis.properties,') && ++seen.properties % 4 === 2) faulty.set(user, { hang: true });
      if (system.includes('(Prompt synthesis.compose,')) {
        seen.compose++;
        if (seen.compose % 5 === 2) faulty.set(user, { raw: '{"choices": "not a completion"' });
        if (seen.compose % 5 === 4) faulty.set(user, { content: 'Here is a query: Which gene is it?' });
      }
      return faulty.get(user) ?? plausibleReply(messages);
    });
    try {
      const config = llmEnv(fake.baseUrl);
      const s = spec({ querySet: 'syn-llm', count: 10, useLlm: true, maxAnswers: 100, agreement: 'majority' });
      const id = await startSynthesisJob(pool(), kbId, s, null, config);
      const job = await runSynthesisJob(pool(), id, { llm: config });
      expect(job).toMatchObject({ status: 'SUCCEEDED', done: 10, llm: { models: ['writer', 'judge-a', 'judge-b'] } });
      const set = await pool().query('SELECT description FROM query_set WHERE name = $1', ['syn-llm']);
      expect(set.rows[0].description).toContain('with the LLM writer (filtering by judge-a, judge-b)');
      const sum = job.summary;
      expect(sum.failed.properties).toBeGreaterThan(0);
      expect(sum.failed.compose).toBeGreaterThan(0);
      const failedItems = await pool().query<{ stage: string; n: number }>(
        `SELECT stage, count(*)::int AS n FROM synthesis_item WHERE job_id = $1 AND status = 'failed' GROUP BY stage`, [id]);
      expect(Object.fromEntries(failedItems.rows.map((r) => [r.stage, r.n]))).toEqual(
        Object.fromEntries(Object.entries(sum.failed).filter(([, n]) => n > 0)));
      const calls = await pool().query<{ status: string; n: number; tokens: number }>(
        `SELECT status, count(*)::int AS n, sum(total_tokens)::int AS tokens FROM llm_call WHERE job_id = $1 GROUP BY status`, [id]);
      const byStatus = Object.fromEntries(calls.rows.map((r) => [r.status, r.n]));
      expect(byStatus.timeout).toBeGreaterThan(0);
      expect(byStatus.malformed).toBeGreaterThan(0);
      expect(sum.llmCalls).toBe(calls.rows.reduce((a, r) => a + r.n, 0));
      expect(sum.llmFailures).toBe(calls.rows.filter((r) => r.status !== 'ok').reduce((a, r) => a + r.n, 0));
      expect(sum.tokens).toBe(calls.rows.reduce((a, r) => a + r.tokens, 0));
      // A throttled request was retried: more requests than stored calls that were answered or failed once.
      expect(fake.requests.length).toBeGreaterThan(sum.llmCalls);

      const queries = await queriesOf('syn-llm');
      expect(queries).toHaveLength(10);
      for (const q of queries) {
        const p = q.metadata.synthesis;
        expect(p.methods.properties).toBe('writer');
        expect(p.methods.filter).toEqual(['judge-a', 'judge-b']);
        expect(p.llmCallIds.length).toBeGreaterThan(2);
        expect(p.prompts.map((x) => x.id)).toEqual(expect.arrayContaining(['synthesis.properties', 'synthesis.compose', 'synthesis.filter']));
      }
    } finally {
      await fake.close();
    }
  }, 120_000);

  it('stops cleanly at the token budget, leaving the item it cut short open', async () => {
    const fake = await startFakeChatServer(({ messages }) => plausibleReply(messages));
    try {
      const config = llmEnv(fake.baseUrl);
      const id = await startSynthesisJob(pool(), kbId, spec({ querySet: 'syn-budget', count: 20, useLlm: true, maxAnswers: 100, tokenBudget: 2000 }), null, config);
      const job = await runSynthesisJob(pool(), id, { llm: config });
      expect(job.status).toBe('FAILED');
      expect(job.message).toMatch(/^Stopped at the token budget of 2000 tokens: kept \d+ of 20 queries after \d+ attempts\.$/);
      expect(job.done).toBeLessThan(20);
      expect(job.summary.tokens).toBeGreaterThanOrEqual(2000);
      expect(await queriesOf('syn-budget')).toHaveLength(job.done);
      const items = await pool().query<{ reason: string | null }>('SELECT reason FROM synthesis_item WHERE job_id = $1', [id]);
      expect(items.rows).toHaveLength(job.attempted);
      expect(items.rows.filter((r) => /budget/i.test(r.reason ?? ''))).toEqual([]);
    } finally {
      await fake.close();
    }
  }, 60_000);
});

describe('the dataset card of a synthesized set', () => {
  const release = async (set: string) => (await createRelease(pool(), await getQuerySet(pool(), kbId, set), { name: 'IBD', slug: 'ibd' }, { name: 'first', userId: null })).card;

  it('tells how each job made the queries: pipeline, methods per stage, prompts, filters and counts per stage', async () => {
    const card = await release('syn-ibd');
    const jobs = (await pool().query<{ id: number }>(`SELECT id FROM synthesis_job WHERE set_name = 'syn-ibd' ORDER BY id`)).rows.map((r) => r.id);
    expect(jobs).toHaveLength(2);
    expect(card).toContain('## How the queries were made');
    expect(card.indexOf('## How the queries were made')).toBeLessThan(card.indexOf('## Files'));
    for (const id of jobs) {
      const job = await getJob(pool(), kbId, id);
      const section = card.slice(card.indexOf(`### Synthesis job ${id} `)).split('\n### ')[0]!;
      expect(section).toContain(`| Templates | 2 (\`${DRUG_TARGETS}\`, \`${DISEASE_GENES}\`) |`);
      expect(section).toContain('| Properties | deterministic, no LLM: document fields and rarest terms by BM25 idf |');
      expect(section).toContain('| Filter | deterministic, no LLM: term evidence in each candidate\'s document |');
      expect(section).toContain('| Prompts | none |');
      expect(section).toContain(`| Outcome | succeeded: kept ${job.done} of ${job.total} queries asked after ${job.attempted} attempts; ${job.done} in this release |`);
      for (const stage of ['relational', 'properties', 'compose', 'leak', 'filter'] as const) {
        expect(section).toContain(`| ${stage} | ${job.summary.dropped[stage]} | ${job.summary.failed[stage]} |`);
      }
    }
  });

  it('names the models per stage, the judges\' agreement and the prompt versions of an LLM job', async () => {
    const card = await release('syn-llm');
    expect(card).toContain('| Properties | LLM `writer` |');
    expect(card).toContain('| Composition | LLM `writer` |');
    expect(card).toContain('| Filter | LLM judges `judge-a`, `judge-b`, agreement: majority |');
    expect(card).toContain('| Prompts | synthesis.compose v1, synthesis.filter v1, synthesis.properties v1 |');
    expect(card).toMatch(/\| LLM calls \| \d+ \(\d+ failed\), \d+ tokens \|/);
  });

  it('has no such section for a set made by hand', async () => {
    expect(await release('by-hand')).not.toContain('How the queries were made');
  });
});
