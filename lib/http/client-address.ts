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
