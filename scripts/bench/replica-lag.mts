// How far a streaming replica falls behind while an import writes: starts a scratch primary and hot standby on
// this machine (as the replica test does), imports a generated knowledge base on the primary and samples, every
// 250 ms, how many bytes of WAL the replica has yet to replay and PostgreSQL's replay_lag.
//
//   npx tsx scripts/bench/replica-lag.mts [--shape mag] [--scale 0.02]
//
// Needs the PostgreSQL server binaries (/usr/lib/postgresql/15/bin or SKB_PG_BIN); the servers and data are removed
// at the end. Both servers share this machine's disk and cores, so the lag is that of a replica on the same host.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { migrate } from '../../lib/db/migrate';
import { generateKnowledgeBase } from '../../lib/ingest/generate';
import { importKnowledgeBase } from '../../lib/ingest/importer';
import { nativeSource } from '../../lib/ingest/readers/native';
import { startReplicatedCluster } from '../../test/support/replica';

const { values } = parseArgs({ options: { shape: { type: 'string', default: 'mag' }, scale: { type: 'string', default: '0.02' } } });
const shape = values.shape as 'prime' | 'mag' | 'amazon';
const scale = Number(values.scale);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-replica-lag-'));
const cluster = await startReplicatedCluster();
const primary = new pg.Pool({ connectionString: cluster.primaryUrl, max: 4 });
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
try {
  await migrate(cluster.primaryUrl);
  const generated = await generateKnowledgeBase({ shape, scale, outDir: dir });
  const files = [generated.files.entities, generated.files.edges];
  const lsn = async () => (await primary.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0]!.lsn;
  const start = await lsn();

  let maxBehind = 0;
  let maxLagSeconds = 0;
  const sampler = setInterval(() => {
    primary.query<{ behind: string | null; lag: number | null }>(
      `SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), replay_lsn) AS behind, extract(epoch FROM replay_lag)::float8 AS lag FROM pg_stat_replication`)
      .then(({ rows: [r] }) => {
        maxBehind = Math.max(maxBehind, Number(r?.behind ?? 0));
        maxLagSeconds = Math.max(maxLagSeconds, r?.lag ?? 0);
      })
      .catch(() => undefined);
  }, 250);
  const t0 = performance.now();
  const summary = await importKnowledgeBase(primary, nativeSource(files), { slug: 'lag', format: 'native', files, visibility: 'PUBLIC' });
  const importSeconds = (performance.now() - t0) / 1000;
  const end = await lsn();
  const t1 = performance.now();
  await cluster.waitForReplay(600_000);
  const catchUpSeconds = (performance.now() - t1) / 1000;
  clearInterval(sampler);
  const { rows: [wal] } = await primary.query<{ bytes: string }>('SELECT pg_wal_lsn_diff($1::pg_lsn, $2::pg_lsn) AS bytes', [end, start]);
  const { rows: [size] } = await primary.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes');

  console.log(`${shape} scale ${scale}: ${summary.entities.toLocaleString('en')} entities, ${summary.edges.toLocaleString('en')} edges; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`| import | WAL written | database | replica behind at most | replay_lag at most | caught up after the import |`);
  console.log(`| --- | --- | --- | --- | --- | --- |`);
  console.log(`| ${importSeconds.toFixed(1)} s | ${mb(Number(wal!.bytes))} MB | ${mb(Number(size!.bytes))} MB | ${mb(maxBehind)} MB | ${maxLagSeconds.toFixed(1)} s | ${catchUpSeconds.toFixed(1)} s |`);
} finally {
  await primary.end();
  await cluster.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
