import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { llmConfig } from '../../lib/llm/config';
import { requestCancel } from '../../lib/synthesis/job-store';
import { runSynthesisJob, startSynthesisJob } from '../../lib/synthesis/jobs';
import { jobSpecSchema } from '../../lib/synthesis/spec';
import { openAppDatabase, pool } from '../support/app-database';
import { importIbd } from '../support/primekg-ibd';
import { runSkb } from '../support/run-skb';
import type { TestDatabase } from '../support/test-database';

const DRUG_TARGETS = 'drug -[target]-> gene/protein';

/** `skb synthesize`, as the real command on a scratch database with the IBD fixture and no LLM configured. */
describe('skb synthesize', () => {
  let testDb: TestDatabase;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let kbId: number;
  const skb = (args: string[]) => runSkb(['synthesize', '--kb', 'ibd', ...args], env);

  beforeAll(async () => {
    testDb = await openAppDatabase();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-cli-synthesize-'));
    env = { ...process.env, SKB_DATA_DIR: dir, DATABASE_URL: testDb.url, SKB_LLM_BASE_URL: '' };
    kbId = await importIbd(pool());
  }, 180_000);
  afterAll(async () => {
    await testDb.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('synthesizes the queries asked, as JSON or as a summary, into one synthesized set', async () => {
    const json = await skb(['--set', 'cli-syn', '--templates', DRUG_TARGETS, '--count', '3', '--seed', '2', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const job = JSON.parse(json.stdout);
    expect(job).toMatchObject({ status: 'SUCCEEDED', querySet: 'cli-syn', done: 3, total: 3, llm: null, spec: { seed: 2, templates: [DRUG_TARGETS] } });
    expect(job.summary.kept).toBe(3);

    const text = await skb(['--set', 'cli-syn', '--templates', `${DRUG_TARGETS},disease -[associated with]-> gene/protein`, '--count', '2', '--no-llm']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^Synthesis job \d+ into query set cli-syn: SUCCEEDED, kept 2 of 2 queries after \d+ attempts\n  dropped: relational \d+, properties \d+, compose 0, leak \d+, filter \d+\n  failed: {2}relational 0, properties 0, compose 0, leak 0, filter 0\n  deterministic pipeline, no LLM\n$/);
    const { rows } = await pool().query<{ n: number; origin: string }>(
      `SELECT count(q.id)::int AS n, s.origin::text AS origin FROM query_set s JOIN query q ON q.set_id = s.id WHERE s.name = 'cli-syn' GROUP BY s.origin`);
    expect(rows[0]).toEqual({ n: 5, origin: 'SYNTHESIZED' });
  });

  it('refuses unknown templates and bad options with exit code 1, naming them', async () => {
    // Independent commands, side by side.
    const [unknown, count, range, missing] = await Promise.all([
      skb(['--set', 'cli-bad', '--templates', 'drug -[cures]-> gene/protein', '--count', '2']),
      skb(['--set', 'cli-bad', '--templates', DRUG_TARGETS, '--count', '0']),
      skb(['--set', 'cli-bad', '--templates', 'all:5', '--count', '2']),
      skb(['--templates', DRUG_TARGETS, '--count', '2']),
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('skb: templates: unknown template: "drug -[cures]-> gene/protein": unknown relation "cures"\n');
    expect(count.code).toBe(1);
    expect(count.stderr).toContain('--count: count must be at least 1');
    expect(range.stderr).toContain('--templates: write "all:MIN-MAX", e.g. all:1-20 (got "all:5")');
    expect(missing.stderr).toContain('Give --set, --templates and --count');
    const { rows } = await pool().query(`SELECT 1 FROM query_set WHERE name = 'cli-bad'`);
    expect(rows).toEqual([]);
  });

  it('resumes a cancelled job to the count asked', async () => {
    const noLlm = llmConfig({});
    const id = await startSynthesisJob(pool(), kbId, jobSpecSchema.parse({ querySet: 'cli-resume', templates: [DRUG_TARGETS], count: 4, useLlm: false }), null, noLlm);
    await requestCancel(pool(), kbId, id);
    expect((await runSynthesisJob(pool(), id, { llm: noLlm })).status).toBe('CANCELLED');
    const resumed = await skb(['--resume', String(id), '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ id, status: 'SUCCEEDED', done: 4 });
    const again = await skb(['--resume', String(id)]);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`skb: Synthesis job ${id} has finished; nothing to resume\n`);
  });

  it('lists the templates of the knowledge base', async () => {
    const listed = await skb(['--list-templates', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const list = JSON.parse(listed.stdout) as { total: number; items: { key: string; steps: number }[] };
    expect(list.items).toHaveLength(list.total);
    expect(list.items.map((t) => t.key)).toContain(DRUG_TARGETS);
    expect(list.items.every((t) => t.steps >= 1 && t.steps <= 3)).toBe(true);
  });
});
