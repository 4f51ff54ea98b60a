import http from 'node:http';
import { parseArgs } from 'node:util';
import next from 'next';
import { oidcSettings } from '../lib/auth/oidc-settings';
import { CLIENT_ADDRESS_HEADER, resolveClientAddress, trustedProxyCount } from '../lib/http/client-address';
import { refuseMalformedPath } from '../lib/http/request-path';
import { pool, readPool } from '../lib/db/client';
import { keepConnectionsAlive } from '../lib/server/keep-alive';
import { warmSearchIndexes } from '../lib/retrieval/bm25-warm';
import { resumeAbandonedJobs } from '../lib/synthesis/jobs';

/**
 * The app's HTTP server, started by `skb serve` once per app process (`--workers`; node:cluster shares the port):
 * Next.js behind a plain Node server, so that every request carries the client address worked out from the
 * socket (`next start` leaves a client's own X-Forwarded-For in place, where route code cannot tell it from one
 * a proxy wrote). Everything it keeps in memory is a cache or work it owns (recorded in the database with its
 * pid), so any number of these can serve one database; docs/scaling.md says why each holds.
 */
const { values } = parseArgs({
  options: { port: { type: 'string' }, host: { type: 'string' }, dev: { type: 'boolean', default: false }, dir: { type: 'string' } },
});
const port = Number(values.port);
const hostname = values.host!;
const trustedProxies = trustedProxyCount(process.env.SKB_TRUSTED_PROXIES);
// A mistake in the OpenID Connect settings stops the app here, naming the variable, not at someone's sign-in.
oidcSettings();

const server = http.createServer();
keepConnectionsAlive(server);
const app = next({ dev: values.dev, dir: values.dir, hostname, port, httpServer: server });

await app.prepare();
const handle = app.getRequestHandler();
server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
  if (refuseMalformedPath(req, res)) return;
  // Overwrites whatever the client sent under this name.
  req.headers[CLIENT_ADDRESS_HEADER] = resolveClientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trustedProxies);
  void handle(req, res);
});
server.listen(port, hostname, () => {
  console.log(`Listening on ${hostname}:${port}${values.dev ? ' (development)' : ''}, process ${process.pid}`);
  // The search index's common words, read ahead in every process that answers searches (from the replica,
  // when one is configured, as the searches are).
  // It takes minutes at Amazon size and a core meanwhile, so its end is logged (benchmarks wait for it).
  const warming = performance.now();
  void warmSearchIndexes(readPool()).then((kept) =>
    console.log(`Search indexes read ahead by process ${process.pid}: ${kept.toLocaleString('en')} postings in ${((performance.now() - warming) / 1000).toFixed(1)} s`));
  // Synthesis jobs whose process died (a killed or restarted server, a crashed app process) continue here where
  // they stopped; each app process asks, and the claim in the database gives each job to one of them.
  void resumeAbandonedJobs(pool()).then(
    (ids) => ids.length && console.log(`Resumed synthesis job${ids.length > 1 ? 's' : ''} ${ids.join(', ')}`),
    (err: Error) => console.warn(`Resuming synthesis jobs: ${err.message}`));
});

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  server.close();
  void app.close().finally(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
