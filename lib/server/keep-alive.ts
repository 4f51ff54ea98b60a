import type http from 'node:http';

/**
 * How long an idle keep-alive connection stays open: longer than clients and load balancers keep theirs (60 s is
 * a common idle timeout). With Node's default of 5 s the server closes first, and a client reusing the connection
 * at that moment gets a reset (ECONNRESET; a 502 behind a proxy).
 */
export const KEEP_ALIVE_MS = 65_000;

export function keepConnectionsAlive(server: http.Server, ms: number = KEEP_ALIVE_MS): void {
  server.keepAliveTimeout = ms;
  // Node requires the wait for a request's headers to outlast the keep-alive timeout.
  server.headersTimeout = ms + 1_000;
}
