import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorResponse, idParam, json, readJson } from '../../lib/http/api';
import { safeReturnPath } from '../../lib/http/return-path';
import { AppError, notFound } from '../../lib/errors';

const post = (body: string) => new Request('http://localhost/api/x', { method: 'POST', body, headers: { 'content-type': 'application/json' } });

describe('API helpers', () => {
  it('reports malformed JSON as a 400 that says so', async () => {
    const err = await readJson(post('{"role": '), z.object({ role: z.string() })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 400, message: expect.stringMatching(/^Malformed JSON body: /) });
  });

  it('names every invalid or missing field', async () => {
    const schema = z.object({ email: z.string(), age: z.number().int() });
    const err = await readJson(post('{"age": 1.5}'), schema).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, details: [{ field: 'email' }, { field: 'age' }] });
    expect((err as Error).message).toMatch(/^Invalid body: email: .*; age: /);
  });

  it('accepts valid bodies', async () => {
    expect(await readJson(post('{"role":"RATER"}'), z.object({ role: z.literal('RATER') }))).toEqual({ role: 'RATER' });
  });

  it('parses positive integer ids only', () => {
    expect(idParam('42', 'user id')).toBe(42);
    for (const bad of ['0', '-1', '1.5', 'abc', '']) expect(() => idParam(bad, 'user id'), bad).toThrow(/user id/);
  });

  it('encodes bigints and maps errors to statuses', async () => {
    const ok = json({ n: 12n, big: 2n ** 70n });
    expect(await ok.json()).toEqual({ n: 12, big: '1180591620717411303424' });
    const missing = errorResponse(notFound('No such thing'));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'No such thing' });
    const crash = errorResponse(new Error('secret stack detail'));
    expect(crash.status).toBe(500);
    expect(await crash.json()).toEqual({ error: 'Internal error' });
  });

  it('follows only same-site return paths after sign-in', () => {
    expect(safeReturnPath('/kb/demo')).toBe('/kb/demo');
    expect(safeReturnPath(['/admin/users', '/x'])).toBe('/admin/users');
    for (const bad of ['https://evil.example', '//evil.example', '/\\evil.example', undefined, '']) expect(safeReturnPath(bad)).toBe('/');
  });
});
