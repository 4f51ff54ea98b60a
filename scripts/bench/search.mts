// Search benchmark: explorer search alone (the explorer benchmark's search rows) on the same generated
// knowledge base, which is made on the first run as explorer.mts makes it (STaRK-Prime-sized, or a shape).
//
//   npx tsx scripts/bench/search.mts [--server URL] [--database NAME] [--slug SLUG] [--shape mag|amazon] [--scale F] [--runs 200] [--only bm25|fulltext]
import os from 'node:os';
import { parseArgs } from 'node:util';
import { mulberry32 } from '../../lib/random';
import { benchDataArgs, benchDataOptions, ensureBenchDatabase, appSessionPool } from './explorer-data';
import { table } from './measure';
import { searchMeasures } from './search-measures';

const { values } = parseArgs({
  options: {
    ...benchDataArgs,
    runs: { type: 'string', default: '200' },
    // fulltext: the search that answers while the ranking index is built, without building or reading ahead the index.
    only: { type: 'string' },
  },
});
if (values.only !== undefined && !['bm25', 'fulltext'].includes(values.only)) throw new Error(`--only: choose bm25 or fulltext, not ${values.only}`);
const { url, kbId } = await ensureBenchDatabase(benchDataOptions(values));
const pool = appSessionPool(url, 4);
const timings = await searchMeasures(pool, kbId, Number(values.runs), mulberry32(20261122), { bm25: values.only !== 'fulltext', fullText: values.only !== 'bm25' });
console.log(`\nMachine: ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}; ${new Date().toISOString().slice(0, 10)}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
console.log(table(timings.map((t) => ({ ...t, budget: 100 }))));
await pool.end();
