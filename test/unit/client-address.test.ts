import { describe, expect, it } from 'vitest';
import { clientAddress, resolveClientAddress, trustedProxyCount } from '../../lib/http/client-address';

describe('client address', () => {
  it('is the socket peer with no trusted proxies, whatever X-Forwarded-For says', () => {
    expect(resolveClientAddress('203.0.113.9', '198.51.100.1', 0)).toBe('203.0.113.9');
    expect(resolveClientAddress('203.0.113.9', undefined, 0)).toBe('203.0.113.9');
    expect(resolveClientAddress(undefined, '198.51.100.1', 0)).toBe('unknown');
  });

  it('behind N proxies, is the entry N hops from the right of the chain plus the peer', () => {
    // One nginx at 10.0.0.2 that appends what it saw; the client forged the first entry.
    expect(resolveClientAddress('10.0.0.2', '6.6.6.6, 203.0.113.9', 1)).toBe('203.0.113.9');
    expect(resolveClientAddress('10.0.0.2', '203.0.113.9', 1)).toBe('203.0.113.9');
    // A CDN in front of nginx: two trusted hops.
    expect(resolveClientAddress('10.0.0.2', '6.6.6.6,203.0.113.9, 172.16.0.5', 2)).toBe('203.0.113.9');
    // Repeated headers count as one list.
    expect(resolveClientAddress('10.0.0.2', ['6.6.6.6', '203.0.113.9'], 1)).toBe('203.0.113.9');
  });

  it('takes the leftmost address when the chain is shorter than the trusted hops', () => {
    expect(resolveClientAddress('10.0.0.2', '203.0.113.9', 5)).toBe('203.0.113.9');
    expect(resolveClientAddress('10.0.0.2', undefined, 1)).toBe('10.0.0.2');
    expect(resolveClientAddress('10.0.0.2', ' , ', 1)).toBe('10.0.0.2');
  });

  it('reads the setting strictly', () => {
    expect(trustedProxyCount(undefined)).toBe(0);
    expect(trustedProxyCount('')).toBe(0);
    expect(trustedProxyCount('1')).toBe(1);
    for (const bad of ['-1', '1.5', 'yes']) expect(() => trustedProxyCount(bad), bad).toThrow(/SKB_TRUSTED_PROXIES/);
  });

  it('is read by route code only from the header the server sets', () => {
    expect(clientAddress(new Headers({ 'x-skb-client-address': '203.0.113.9', 'x-forwarded-for': '6.6.6.6' }))).toBe('203.0.113.9');
    expect(clientAddress(new Headers({ 'x-forwarded-for': '6.6.6.6' }))).toBe('unknown');
    expect(clientAddress({ 'x-skb-client-address': '203.0.113.9' })).toBe('203.0.113.9');
  });
});
