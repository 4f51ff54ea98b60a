// Search benchmark: explorer search alone (the explorer benchmark's search rows) on the same generated
// STaRK-Prime-sized knowledge base, which is made on the first run as explorer.mts makes it.
//
//   npx tsx scripts/bench/search.mts [--server URL] [--database skb_bench_explorer] [--runs 200]
import os from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { mulberry32 } from '../../lib/random';
import { ensureBenchDatabase } from './explorer-data';
import { table } from './measure';
import { searchMeasures } from './search-measures';

const { values } = parseArgs({
  options: {
    server: { type: 'string', default: process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' },
    database: { type: 'string', default: 'skb_bench_explorer' },
    runs: { type: 'string', default: '200' },
  },
});
const { url, kbId } = await ensureBenchDatabase({ server: values.server!, database: values.database!, entities: 130_000, edges: 8_100_000 });
const pool = new pg.Pool({ connectionString: url, max: 4 });
const timings = await searchMeasures(pool, kbId, Number(values.runs), mulberry32(20261122));
console.log(`\nMachine: ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}; ${new Date().toISOString().slice(0, 10)}\n`);
console.log(table(timings.map((t) => ({ ...t, budget: 50 }))));
await pool.end();
