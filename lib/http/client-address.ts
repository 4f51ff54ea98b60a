/**
 * The address a request came from, as the app's own HTTP server worked it out from the socket and the
 * trusted proxies (`SKB_TRUSTED_PROXIES`), and passed on in this header, overwriting whatever a client sent.
 * Route handlers never read `X-Forwarded-For` themselves: its first entries are written by the client.
 */
export const CLIENT_ADDRESS_HEADER = 'x-skb-client-address';

type HeaderSource = Headers | Record<string, unknown> | undefined;

export function clientAddress(headers: HeaderSource): string {
  const value = headers instanceof Headers ? headers.get(CLIENT_ADDRESS_HEADER) : headers?.[CLIENT_ADDRESS_HEADER];
  return typeof value === 'string' && value ? value : 'unknown';
}

/**
 * The standard trusted-hop rule: with no trusted proxies the socket's peer is the client; behind N of them,
 * the address N hops from the right of `X-Forwarded-For` + peer, since each proxy appends the address it saw
 * and only those appended by our own proxies can be believed (a shorter chain gives its leftmost entry).
 */
export function resolveClientAddress(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trustedProxies: number): string {
  const peer = socketAddress || 'unknown';
  if (trustedProxies <= 0) return peer;
  const forwarded = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const chain = [...forwarded, peer];
  return chain[Math.max(0, chain.length - 1 - trustedProxies)]!;
}

/** `SKB_TRUSTED_PROXIES`: how many proxies in front of the app append to `X-Forwarded-For` (0 when unset). */
export function trustedProxyCount(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 0;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`SKB_TRUSTED_PROXIES must be a whole number, not "${value}"`);
  return n;
}
