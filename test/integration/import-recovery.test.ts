import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../lib/db/generated/enums';
import { cancelImportJob, getImportJob } from '../../lib/ingest/import-jobs-view';
import { importKnowledgeBase } from '../../lib/ingest/importer';
import { buildSearchTable, createStagingTables, createVectorTable, stagingTables } from '../../lib/ingest/partitions';
import { ABANDONED_AFTER_MINUTES, recoverAbandonedImports } from '../../lib/ingest/recovery';
import { processStart } from '../../lib/ingest/owner';
import { currentIndex } from '../../lib/retrieval/bm25-index';
import { createPostingTable } from '../../lib/retrieval/bm25-write';
import type { KnowledgeSource } from '../../lib/ingest/source';
import { db, openAppDatabase, pool } from '../support/app-database';
import { runSkb } from '../support/run-skb';
import type { TestDatabase } from '../support/test-database';

const admin = { id: 1, role: Role.ADMIN };

async function tablesOfJob(jobId: number): Promise<string[]> {
  const { rows } = await pool().query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE tablename ~ $1 ORDER BY 1`, [`_load_${jobId}$`]);
  return rows.map((r) => r.tablename);
}

async function job(id: number) {
  return db().importJob.findUniqueOrThrow({ where: { id } });
}

const tiny: KnowledgeSource = {
  progress: () => ({ done: 1, total: 1 }),
  async *entities() {
    yield { externalId: 'a', type: 'thing', name: 'A', aliases: [], document: {}, at: { file: 'mem', line: 1 } };
  },
  async *edges() {},
};

/** The pid of a process that has just exited: a pid nobody runs now. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

/**
 * A job as a process that was killed mid-import leaves it: RUNNING, owned by `owner`, with its staging
 * tables and, for a first import, an invisible knowledge base.
 */
async function orphanedJob(slug: string, owner: { host: string; pid: number; start: string | null }, heartbeatMinutesAgo = 0): Promise<{ id: number; kbId: number }> {
  const kb = await pool().query<{ id: number }>(`INSERT INTO knowledge_base (slug, name, status) VALUES ($1, $1, 'LOADING') RETURNING id`, [slug]);
  const kbId = kb.rows[0]!.id;
  const { rows } = await pool().query<{ id: number }>(
    `INSERT INTO import_job (kb_id, slug, format, owner_host, owner_pid, owner_start, heartbeat_at)
     VALUES ($1, $2, 'native', $3, $4, $5, now() - make_interval(mins => $6)) RETURNING id`,
    [kbId, slug, owner.host, owner.pid, owner.start, heartbeatMinutesAgo],
  );
  // Every kind of staging table an import makes, at once: the entity, edge and vector tables of the load (the last is
  // dropped once the search table is made from it) and the search table.
  await createStagingTables(pool(), stagingTables(rows[0]!.id));
  await createVectorTable(pool(), stagingTables(rows[0]!.id));
  await buildSearchTable(pool(), stagingTables(rows[0]!.id), kbId);
  return { id: rows[0]!.id, kbId };
}

describe('recovering imports whose process is gone', () => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await openAppDatabase();
  });
  afterAll(async () => {
    await testDb.drop();
  });

  it('recovers a job of a dead process on this host at once, and only once when recoveries race', async () => {
    const { id, kbId } = await orphanedJob('dead-owner', { host: os.hostname(), pid: deadPid(), start: null });
    expect(await tablesOfJob(id)).toHaveLength(4);
    const [a, b] = await Promise.all([recoverAbandonedImports(pool()), recoverAbandonedImports(pool())]);
    expect([...a, ...b]).toEqual([id]);
    expect(await job(id)).toMatchObject({ status: 'FAILED', message: expect.stringMatching(/^The import was interrupted: its process \(pid \d+ on .+\) stopped\.$/) });
    expect(await tablesOfJob(id)).toEqual([]);
    expect(await db().knowledgeBase.findUnique({ where: { id: kbId } })).toBeNull();
    expect(await recoverAbandonedImports(pool())).toEqual([]);
  });

  // On the embedded database every connection shares one session, so there is no other session to end.
  it.runIf(process.env.SKB_TEST_DB === 'postgres')("ends the dead owner's database session when it still holds the staging tables", async () => {
    const { id } = await orphanedJob('orphaned-session', { host: os.hostname(), pid: deadPid(), start: null });
    // As a session whose client was killed mid-statement: alive, holding a lock on the staging tables.
    const orphan = new pg.Client({ connectionString: testDb.url });
    orphan.on('error', () => {});
    await orphan.connect();
    await orphan.query('BEGIN');
    await orphan.query(`LOCK TABLE ${stagingTables(id).entity} IN ACCESS SHARE MODE`);
    try {
      expect(await recoverAbandonedImports(pool())).toEqual([id]);
      expect(await tablesOfJob(id)).toEqual([]);
      await expect(orphan.query('SELECT 1')).rejects.toThrow();
    } finally {
      await orphan.end().catch(() => {});
    }
  });

  it('keeps the live version of a knowledge base whose re-import died', async () => {
    const { kbId } = await importKnowledgeBase(pool(), tiny, { slug: 'reimported', format: 'test', files: [] });
    const { rows } = await pool().query<{ id: number }>(
      `INSERT INTO import_job (kb_id, slug, format, owner_host, owner_pid) VALUES ($1, 'reimported', 'native', $2, $3) RETURNING id`,
      [kbId, os.hostname(), deadPid()],
    );
    const id = rows[0]!.id;
    await createStagingTables(pool(), stagingTables(id));
    // The BM25 index it had begun before publishing (as on PostgreSQL), owned by the same dead process.
    const live = (await currentIndex(pool(), kbId, false))!;
    const { rows: [unfinished] } = await pool().query<{ id: number }>(
      `INSERT INTO bm25_index (kb_id, relations, status, kb_version, docs, avg_length, done, total, owner_host, owner_pid)
       SELECT id, false, 'BUILDING', updated_at, 0, 0, 0, 1, $2, $3 FROM knowledge_base WHERE id = $1 RETURNING id`,
      [kbId, os.hostname(), deadPid()]);
    await createPostingTable(pool(), unfinished!.id);
    expect(await recoverAbandonedImports(pool())).toEqual([id]);
    expect(await tablesOfJob(id)).toEqual([]);
    expect(await db().knowledgeBase.findUniqueOrThrow({ where: { id: kbId } })).toMatchObject({ status: 'READY', entityCount: 1 });
    const { rows: indexes } = await pool().query('SELECT id, status FROM bm25_index WHERE kb_id = $1', [kbId]);
    expect(indexes).toEqual([{ id: live.id, status: 'READY' }]);
    expect((await pool().query('SELECT to_regclass($1) AS t', [`bm25_block_${unfinished!.id}`])).rows).toEqual([{ t: null }]);
  });

  it('marks a job killed while building the search index succeeded: its data was published already', async () => {
    const { kbId } = await importKnowledgeBase(pool(), tiny, { slug: 'killed-indexing', format: 'test', files: [] });
    const { rows } = await pool().query<{ id: number }>(
      `INSERT INTO import_job (kb_id, slug, format, owner_host, owner_pid, phase) VALUES ($1, 'killed-indexing', 'native', $2, $3, 'search-index') RETURNING id`,
      [kbId, os.hostname(), deadPid()],
    );
    const id = rows[0]!.id;
    expect(await recoverAbandonedImports(pool())).toEqual([id]);
    const recovered = await job(id);
    expect(recovered.status).toBe('SUCCEEDED');
    expect(recovered.message).toMatch(/^The import was interrupted: .* It had published the knowledge base; its search index is built on first use\.$/);
    expect(await db().knowledgeBase.findUniqueOrThrow({ where: { id: kbId } })).toMatchObject({ status: 'READY', entityCount: 1 });
  });

  it('tells a recycled pid from the owner by its start time', async () => {
    // This very process's pid, but started at another time: the owner that had this pid is gone.
    const recycled = await orphanedJob('recycled-pid', { host: os.hostname(), pid: process.pid, start: 'another-boot:1' });
    expect(processStart(process.pid) ?? 'unknown').not.toBe('another-boot:1');
    // A live process (the parent of this one) with its true start is left alone.
    const live = await orphanedJob('live-owner', { host: os.hostname(), pid: process.ppid, start: processStart(process.ppid) });
    const recovered = await recoverAbandonedImports(pool());
    if (processStart(process.pid) !== null) expect(recovered).toContain(recycled.id);
    expect(recovered).not.toContain(live.id);
    expect((await job(live.id)).status).toBe('RUNNING');
    await pool().query(`UPDATE import_job SET owner_pid = $2 WHERE id = $1`, [live.id, deadPid()]);
    expect(await recoverAbandonedImports(pool())).toEqual(expect.arrayContaining([live.id]));
  });

  it('trusts another host\'s job while its heartbeat is fresh, and recovers it once the heartbeat is stale', async () => {
    const fresh = await orphanedJob('other-host', { host: 'another-host.invalid', pid: 1, start: null }, ABANDONED_AFTER_MINUTES - 1);
    expect(await recoverAbandonedImports(pool())).not.toContain(fresh.id);
    await pool().query(`UPDATE import_job SET heartbeat_at = now() - make_interval(mins => $2) WHERE id = $1`, [fresh.id, ABANDONED_AFTER_MINUTES + 1]);
    expect(await recoverAbandonedImports(pool())).toContain(fresh.id);
    expect((await job(fresh.id)).message).toBe(`The import was interrupted: its process on another-host.invalid stopped reporting for ${ABANDONED_AFTER_MINUTES} minutes.`);
  });

  it('cancelling a job of a dead process fails it at once, and the job shows why', async () => {
    const { id } = await orphanedJob('cancel-dead', { host: os.hostname(), pid: deadPid(), start: null });
    expect(await cancelImportJob(pool(), db(), admin, id)).toBe('FAILED');
    const shown = await getImportJob(pool(), db(), admin, id);
    expect(shown).toMatchObject({ status: 'FAILED', message: expect.stringContaining('interrupted') });
    expect(await tablesOfJob(id)).toEqual([]);
    // The slug is free again.
    await expect(importKnowledgeBase(pool(), tiny, { slug: 'cancel-dead', format: 'test', files: [] })).resolves.toMatchObject({ entities: 1 });
  });

  it('leaves a job this process is running alone', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let jobId = 0;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const source: KnowledgeSource = {
      progress: () => ({ done: 0, total: 1 }),
      async *entities() {
        started();
        await gate;
        yield* tiny.entities();
      },
      async *edges() {},
    };
    const run = importKnowledgeBase(pool(), source, { slug: 'running-here', format: 'test', files: [], onJobCreated: (id) => (jobId = id) });
    await running;
    expect(await recoverAbandonedImports(pool())).not.toContain(jobId);
    expect(await cancelImportJob(pool(), db(), admin, jobId)).toBe('RUNNING');
    release();
    await expect(run).rejects.toThrow('Import cancelled');
  });
});

/**
 * A real `skb import` killed with SIGKILL mid-import. On the embedded database the command connects to
 * the database this test process serves, as it does to a running app's: the socket server rolls back what
 * the killed connection left open, and the staging tables and the job stay behind as on PostgreSQL.
 */
describe('recovering a killed skb import', () => {
  let testDb: TestDatabase;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let files: string[];
  beforeAll(async () => {
    testDb = await openAppDatabase();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-recovery-'));
    env = { ...process.env, DATABASE_URL: testDb.url, SKB_DATA_DIR: dir };
    const generated = await runSkb(['generate', '--entities', '60000', '--edges', '120000', '--out', dir, '--json'], env);
    expect(generated.code, generated.stderr).toBe(0);
    files = [path.join(dir, 'entities.jsonl'), path.join(dir, 'edges.tsv')];
    fs.writeFileSync(path.join(dir, 'small.jsonl'), '{"id": "x", "type": "thing", "name": "X"}\n');
  }, 120_000);
  afterAll(async () => {
    await testDb.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Starts `skb import`, kills it once its job is RUNNING with rows read and staging tables, returns the job. */
  async function killMidImport(slug: string): Promise<number> {
    const child = spawn(process.execPath, [path.join(process.cwd(), 'bin', 'skb.mjs'), 'import', '--kb', slug, '--format', 'native', '--json', ...files], { env, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      for (let i = 0; i < 600; i++) {
        const { rows } = await pool().query<{ id: number }>(`SELECT id FROM import_job WHERE slug = $1 AND status = 'RUNNING' AND rows_read > 0`, [slug]);
        // The entity and edge staging tables, made as the job starts (the search table's comes near the end).
        if (rows[0] && (await tablesOfJob(rows[0].id)).length >= 2) {
          child.kill('SIGKILL');
          await exited;
          return rows[0].id;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('the import never got going');
    } finally {
      child.kill('SIGKILL');
    }
  }

  it('cancel fails the killed import at once, removes its staging tables and frees the slug', async () => {
    const id = await killMidImport('killed');
    expect(await job(id)).toMatchObject({ status: 'RUNNING', ownerHost: os.hostname() });
    expect(await cancelImportJob(pool(), db(), admin, id)).toBe('FAILED');
    expect(await job(id)).toMatchObject({ status: 'FAILED', message: expect.stringMatching(/^The import was interrupted: its process \(pid \d+ on .+\) stopped\.$/) });
    expect(await tablesOfJob(id)).toEqual([]);
    expect(await db().knowledgeBase.findUnique({ where: { slug: 'killed' } })).toBeNull();
    const again = await runSkb(['import', '--kb', 'killed', '--format', 'native', '--json', path.join(dir, 'small.jsonl')], env);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ slug: 'killed', entities: 1 });
  }, 120_000);

  it('the start-up recovery (app server, skb import) cleans up a killed import', async () => {
    const id = await killMidImport('killed-at-start');
    // What the app server runs when it starts.
    expect(await recoverAbandonedImports(pool())).toEqual([id]);
    expect(await job(id)).toMatchObject({ status: 'FAILED' });
    expect(await tablesOfJob(id)).toEqual([]);
    expect(await db().knowledgeBase.findUnique({ where: { slug: 'killed-at-start' } })).toBeNull();

    // skb import recovers before it starts: killed again, the next import of the slug goes through.
    const second = await killMidImport('killed-at-start');
    const again = await runSkb(['import', '--kb', 'killed-at-start', '--format', 'native', '--json', path.join(dir, 'small.jsonl')], env);
    expect(again.code, again.stderr).toBe(0);
    expect(await job(second)).toMatchObject({ status: 'FAILED', message: expect.stringContaining('interrupted') });
    expect(await tablesOfJob(second)).toEqual([]);
  }, 120_000);
});
