import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refuseMalformedPath } from '../../lib/http/request-path';

describe('malformed request paths', () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (refuseMalformedPath(req, res)) return;
      res.end('passed on');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers 400 JSON to a path that does not decode, before the app sees it', async () => {
    for (const path of ['/api/participate/%ED%A0%80', '/api/kbs/%E0%A4%A/stats', '/api/participate/%uD800', '/kb/100%']) {
      const res = await fetch(base + path);
      expect(res.status, path).toBe(400);
      expect(await res.json()).toEqual({ error: 'Invalid path: it is not valid percent-encoded UTF-8' });
    }
  });

  it('passes on well-formed paths, encoded text and odd query strings alike', async () => {
    for (const path of ['/api/kbs/demo/search?q=%ED%A0%80', '/kb/caf%C3%A9', '/api/participate/abc%00', '/']) {
      const res = await fetch(base + path);
      expect(await res.text(), path).toBe('passed on');
    }
  });
});
