import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importKnowledgeBase } from '../../lib/ingest/importer';
import { memorySource } from '../../lib/ingest/memory-source';
import { importQueries } from '../../lib/queries/import';
import type { SourcedQuery } from '../../lib/queries/types';
import { openAppDatabase, pool } from '../support/app-database';
import { npyBytes } from '../support/npy';
import { runSkb } from '../support/run-skb';
import type { TestDatabase } from '../support/test-database';

/**
 * `skb embeddings import|list` and `skb eval --baseline vector`, as the real command on a scratch database
 * this process also reads (on the embedded suite it serves it, as a running app does).
 */
describe('skb embeddings', () => {
  let testDb: TestDatabase;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const file = (name: string, content: string | Buffer) => {
    fs.writeFileSync(path.join(dir, name), content);
    return path.join(dir, name);
  };
  const skb = (args: string[]) => runSkb(args, env);

  beforeAll(async () => {
    testDb = await openAppDatabase();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-cli-embeddings-'));
    env = { ...process.env, SKB_DATA_DIR: dir, DATABASE_URL: testDb.url };
    const { kbId } = await importKnowledgeBase(pool(), memorySource({
      entities: ['n1', 'n2', 'n3'].map((id) => ({ externalId: id, type: 'thing', name: `thing ${id}`, aliases: [], document: {} })),
      edges: [],
    }), { slug: 'three', format: 'test', files: [] });
    async function* queries(): AsyncIterable<SourcedQuery> {
      yield { id: 'qa', text: 'first', answers: ['n2'], seeds: [], split: null, metadata: {}, at: { file: 'q', line: 1 } };
      yield { id: 'qb', text: 'second', answers: ['n3'], seeds: [], split: null, metadata: {}, at: { file: 'q', line: 2 } };
    }
    await importQueries(pool(), queries(), { kbId, setName: 'three-q', origin: 'synthesized', unknownIds: 'reject', userId: null, sourceName: 'q' });
  });
  afterAll(async () => {
    await testDb.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('imports .npy entity vectors and JSONL query vectors, lists them, and scores the vector baseline', async () => {
    const ids = file('ids.txt', 'n1\nn2\nn3\n');
    const entities = await skb(['embeddings', 'import', '--kb', 'three', '--name', 'toy', '--file', file('e.npy', npyBytes([[1, 0, 0], [0, 1, 0], [0, 0, 2]])), '--ids', ids, '--json']);
    expect(entities.code, entities.stderr).toBe(0);
    expect(JSON.parse(entities.stdout)).toMatchObject({ name: 'toy', kind: 'entity', count: 3, dimension: 3, replaced: false });
    // qa points nearest n2 (then n1), qb nearest n1 (then n3).
    const queries = await skb(['embeddings', 'import', '--kb', 'three', '--set', 'three-q', '--name', 'toy',
      '--file', file('q.jsonl', '{"id": "qa", "vector": [0.5, 1, 0]}\n{"id": "qb", "vector": [1, 0, 0.5]}\n')]);
    expect(queries.code, queries.stderr).toBe(0);
    expect(queries.stdout).toBe('Imported query embeddings "toy" on query set three-q: 2 vectors of 3 dimensions\n');
    const listed = await skb(['embeddings', 'list', '--kb', 'three', '--json']);
    expect(JSON.parse(listed.stdout)).toMatchObject([{ name: 'toy', count: 3, dimension: 3, fileName: 'e.npy' }]);

    const run = await skb(['eval', '--set', 'three-q', '--baseline', 'vector', '--embeddings', 'toy', '--json']);
    expect(run.code, run.stderr).toBe(0);
    // qa's answer n2 first (1), qb's answer n3 second (1/2).
    expect(JSON.parse(run.stdout)).toMatchObject({ name: 'Vector (toy, exact cosine)', status: 'DONE', summary: { overall: { queries: 2, means: { hit1: 0.5, mrr: 0.75 } } } });
    const missing = await skb(['eval', '--set', 'three-q', '--baseline', 'hybrid', '--embeddings', 'ada-002']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('embeddings: the knowledge base has no entity embeddings named "ada-002"');
  });

  it('refuses a truncated .npy and an unknown id with the row or line, and keeps the set it would replace', async () => {
    const ids = file('ids2.txt', 'n1\nn2\nn3\n');
    const truncated = await skb(['embeddings', 'import', '--kb', 'three', '--name', 'toy', '--file', file('cut.npy', npyBytes([[1, 0], [0, 1], [1, 1]], { cut: 3 })), '--ids', ids]);
    expect(truncated.code).toBe(1);
    expect(truncated.stderr).toContain('cut.npy row 2, data: is truncated: the file ends in row 2 of 3');
    const unknown = await skb(['embeddings', 'import', '--kb', 'three', '--name', 'toy', '--file', file('u.jsonl', '{"id": "n1", "vector": [1, 2]}\n{"id": "n9", "vector": [2, 1]}\n')]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('u.jsonl line 2, id: n9 is not an entity of the knowledge base');
    const listed = await skb(['embeddings', 'list', '--kb', 'three', '--json']);
    expect(JSON.parse(listed.stdout)).toMatchObject([{ name: 'toy', count: 3, dimension: 3 }]);
  });
});
