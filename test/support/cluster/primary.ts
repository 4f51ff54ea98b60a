// A cluster primary as `skb serve` runs it, with a stand-in app process (./worker.ts), for the cluster test:
//   node --import tsx test/support/cluster/primary.ts <workers> <port> [crash]
// "crash" makes every worker die before it listens.
import path from 'node:path';
import { startCluster } from '../../../lib/server/cluster';

const [workers, port, crash] = process.argv.slice(2);
const app = startCluster({
  workers: Number(workers),
  exec: path.join(import.meta.dirname, 'worker.ts'),
  args: [port!, crash ?? ''],
  execArgv: ['--import', 'tsx'],
  stopGraceMs: 5_000,
});
process.on('SIGTERM', () => app.stop('SIGTERM'));
console.log(`primary ${process.pid}`);
process.exitCode = await app.done;
