import { describe, expect, it } from 'vitest';
import { safeRedirectUrl, safeReturnPath } from '../../lib/http/return-path';

const ORIGIN = 'http://studio.example';

/** Where a browser would go when sent to this location from one of our pages. */
const landsOn = (location: string) => new URL(location, `${ORIGIN}/login`).origin;

describe('return path after sign-in', () => {
  it('keeps paths on the site, with their query', () => {
    expect(safeReturnPath('/kb/demo')).toBe('/kb/demo');
    expect(safeReturnPath('/kb/demo-catalogue/search?q=red+tent&page=2')).toBe('/kb/demo-catalogue/search?q=red+tent&page=2');
    expect(safeReturnPath(['/admin/users', '/x'])).toBe('/admin/users');
  });

  // The callbackUrl values as the page receives them, i.e. after the query string was decoded.
  const payloads = {
    tab: decodeURIComponent('%2F%09%2Fevil.example%2Fphish'),
    newline: decodeURIComponent('%2F%0A%2Fevil.example'),
    'carriage return': decodeURIComponent('%2F%0D%2Fevil.example'),
    backslash: '/\\evil.example',
    'encoded backslash': decodeURIComponent('/%5Cevil.example'),
    'protocol-relative': '//evil.example',
    'absolute URL': 'https://evil.example/',
    'javascript:': 'javascript:alert(1)',
    'space then slash': '/ /evil.example',
    'non-breaking space': '/\u00a0/evil.example',
    empty: '',
    missing: undefined,
  };
  for (const [name, payload] of Object.entries(payloads)) {
    it(`sends ${name} home`, () => {
      expect(safeReturnPath(payload)).toBe('/');
    });
  }

  it('never answers a location that leaves the site, whatever is percent-encoded', () => {
    for (const raw of ['/%5Cevil.example', '/%09/evil.example', '/%2F%2Fevil.example', '/a/..//evil.example']) {
      expect(landsOn(safeReturnPath(raw)), raw).toBe(ORIGIN);
    }
  });
});

describe('next-auth redirect rule', () => {
  it('keeps own-origin addresses and paths, under the same check', () => {
    expect(safeRedirectUrl('/kb/demo?x=1', ORIGIN)).toBe(`${ORIGIN}/kb/demo?x=1`);
    expect(safeRedirectUrl(`${ORIGIN}/login`, ORIGIN)).toBe(`${ORIGIN}/login`);
    expect(safeRedirectUrl('/\t/evil.example', ORIGIN)).toBe(`${ORIGIN}/`);
  });

  it('sends other origins and garbage to the home page', () => {
    for (const url of ['https://evil.example/', 'http://studio.example.evil.example/', '//evil.example', 'javascript:alert(1)', 'not a url']) {
      expect(landsOn(safeRedirectUrl(url, ORIGIN)), url).toBe(ORIGIN);
      expect(safeRedirectUrl(url, ORIGIN), url).toMatch(/^http:\/\/studio\.example\/?$/);
    }
  });
});
