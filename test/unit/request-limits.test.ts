import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { idParam, publicRoute, readJson, readText } from '../../lib/http/api';
import { idSchema } from '../../lib/input';
import { AppError } from '../../lib/errors';

const KIB = 1024;

/** A request whose body is a stream, so the test sees how much of it was read. */
function streamed(chunks: string[], headers: Record<string, string> = {}) {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === chunks.length) return controller.close();
      controller.enqueue(new TextEncoder().encode(chunks[pulled++]));
    },
  }, { highWaterMark: 0 });
  const req = new Request('http://localhost/api/x', { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers }, duplex: 'half' } as RequestInit);
  return { req, pulled: () => pulled };
}

const post = (body: string, url = 'http://localhost/api/x') => new Request(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
const errorOf = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as AppError);
const params = <P>(p: P) => ({ params: Promise.resolve(p) });

describe('request bodies', () => {
  it('refuses a declared Content-Length over the limit without reading the body', async () => {
    const { req, pulled } = streamed(['{"a":1}'], { 'content-length': String(65 * KIB) });
    const route = publicRoute(async ({ req }) => readJson(req, z.object({ a: z.number() })));
    const res = await route(req, params({}));
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatch(/limit of 64 KiB/);
    expect(pulled()).toBe(0);
  });

  it('stops reading a body without Content-Length at the limit', async () => {
    const chunk = 'x'.repeat(16 * KIB);
    const { req, pulled } = streamed(Array.from({ length: 100 }, () => chunk));
    const err = await errorOf(readText(req));
    expect(err).toMatchObject({ status: 413, message: expect.stringMatching(/limit of 64 KiB/) });
    expect(pulled()).toBeLessThanOrEqual(6);
  });

  it('applies the route\'s own larger limit, and the default to routes that name none', async () => {
    const body = JSON.stringify({ text: 'y'.repeat(100 * KIB) });
    const route = (bodyLimit?: number) => publicRoute(async ({ req }) => (await readJson(req, z.object({ text: z.string() }))).text.length, { bodyLimit });
    expect((await route()(post(body), params({}))).status).toBe(413);
    const big = await route(256 * KIB)(post(body), params({}));
    expect(big.status).toBe(200);
    expect(await big.json()).toBe(100 * KIB);
  });

  it('names a NUL character in a nested field', async () => {
    const body = JSON.stringify({ items: [{ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'd\u0000e' }] });
    const err = await errorOf(readJson(post(body), z.object({ items: z.array(z.object({ text: z.string() })) })));
    expect(err).toMatchObject({ status: 400, details: [{ field: 'items.3.text', message: expect.stringMatching(/NUL/) }] });
    expect(err?.message).toMatch(/^Invalid body: items\.3\.text: /);
  });

  it('refuses a body nested past the limit with a 400, never a stack overflow', async () => {
    const body = '['.repeat(30_000) + ']'.repeat(30_000);
    const err = await errorOf(readJson(post(body), z.unknown()));
    expect(err).toMatchObject({ status: 400, details: [{ message: 'must not be nested more than 100 levels deep' }] });
  });

  it('refuses NUL even in fields the schema passes through, and in object keys', async () => {
    const schema = z.object({ metadata: z.record(z.string(), z.unknown()) });
    const nested = await errorOf(readJson(post('{"metadata":{"a":["ok","\\u0000"]}}'), schema));
    expect(nested).toMatchObject({ status: 400, details: [{ field: 'metadata.a.1' }] });
    const key = await errorOf(readJson(post('{"metadata":{"x\\u0000":1}}'), schema));
    expect(key).toMatchObject({ status: 400, details: [{ field: 'metadata', message: expect.stringMatching(/key .*NUL/) }] });
  });

  it('refuses lone surrogates and keeps paired ones', async () => {
    const schema = z.object({ text: z.string() });
    for (const lone of ['\\ud800', 'a\\udc00b', '\\udc00\\ud800']) {
      const err = await errorOf(readJson(post(`{"text":"${lone}"}`), schema));
      expect(err, lone).toMatchObject({ status: 400, details: [{ field: 'text', message: expect.stringMatching(/surrogate/) }] });
    }
    expect(await readJson(post('{"text":"\\ud83d\\ude00"}'), schema)).toEqual({ text: '😀' });
  });

  it('caps ids at the database\'s int4 range', async () => {
    const schema = z.object({ entityId: idSchema });
    expect(await readJson(post('{"entityId":2147483647}'), schema)).toEqual({ entityId: 2147483647 });
    const err = await errorOf(readJson(post('{"entityId":2147483648}'), schema));
    expect(err).toMatchObject({ status: 400, details: [{ field: 'entityId' }] });
  });

  it('bounds the problems it lists', async () => {
    const body = JSON.stringify({ items: Array.from({ length: 1000 }, () => '\u0000') });
    const err = await errorOf(readJson(post(body), z.object({ items: z.array(z.string()) })));
    expect(err?.details).toHaveLength(20);
    expect(err?.message).toMatch(/and 980 more$/);
  });
});

describe('idParam', () => {
  it('takes ids up to 2147483647 and names the parameter otherwise', () => {
    expect(idParam('2147483647', 'entity id')).toBe(2147483647);
    for (const bad of ['2147483648', '99999999999999999999', '1\u0000', '0']) {
      expect(() => idParam(bad, 'entity id'), bad).toThrow(/entity id/);
    }
  });
});

describe('path and query checks', () => {
  const echo = publicRoute<{ token: string }>(async ({ params }) => ({ token: params.token }));
  const get = (url: string) => new Request(`http://localhost${url}`);

  it('refuses NUL, lone surrogates and over-long values in path parameters, naming them', async () => {
    for (const token of ['a\u0000b', '\ud800', 'x'.repeat(1001)]) {
      const res = await echo(get('/api/participate/t'), params({ token }));
      expect(res.status, JSON.stringify(token.slice(0, 10))).toBe(400);
      expect((await res.json()).error).toMatch(/^Invalid path: token: /);
    }
    expect((await echo(get('/api/participate/t'), params({ token: 'fine' }))).status).toBe(200);
  });

  it('refuses NUL and over-long query-string values before the handler runs', async () => {
    const handler = vi.fn(async () => ({}));
    const route = publicRoute(handler);
    for (const query of ['q=a%00b', `q=${'x'.repeat(2001)}`, 'a%00=1']) {
      const res = await route(get(`/api/x?${query}`), params({}));
      expect(res.status, query.slice(0, 10)).toBe(400);
      expect((await res.json()).error).toMatch(/^Invalid query: /);
    }
    expect(handler).not.toHaveBeenCalled();
  });
});

describe('lost database connections', () => {
  const lost = () => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', severity: 'FATAL' });
  const prismaWrapped = () => Object.assign(new Error('Invalid `prisma.user.findUnique()` invocation'), { code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'ConnectionClosed' } } } });
  afterEach(() => vi.restoreAllMocks());

  it('runs a read once more when its connection was lost', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    for (const make of [lost, prismaWrapped]) {
      const handler = vi.fn().mockRejectedValueOnce(make()).mockResolvedValueOnce({ ok: true });
      const res = await publicRoute(handler)(new Request('http://localhost/api/x'), params({}));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
      expect(handler).toHaveBeenCalledTimes(2);
    }
  });

  it('answers 503 with Retry-After for a write, and for a read that fails twice', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const write = vi.fn().mockRejectedValue(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    const res = await publicRoute(write)(post('{}'), params({}));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toEqual({ error: expect.stringMatching(/database is unavailable/) });
    expect(write).toHaveBeenCalledTimes(1);

    const read = vi.fn().mockRejectedValue(new Error('Connection terminated unexpectedly'));
    expect((await publicRoute(read)(new Request('http://localhost/api/x'), params({}))).status).toBe(503);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('does not retry other failures', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const read = vi.fn().mockRejectedValue(Object.assign(new Error('division by zero'), { code: '22012' }));
    expect((await publicRoute(read)(new Request('http://localhost/api/x'), params({}))).status).toBe(500);
    expect(read).toHaveBeenCalledTimes(1);
  });
});
