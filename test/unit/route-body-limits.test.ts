import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

type RouteHandler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

const apiDir = path.resolve(import.meta.dirname, '../../app/api');
const routeFiles = (fs.readdirSync(apiDir, { recursive: true }) as string[]).filter((f) => f.endsWith('route.ts')).sort();
// next-auth's own handler is not wrapped; uploads stream the body under their own limit (tested with them).
const UNWRAPPED = ['auth/[...nextauth]/route.ts', 'uploads/route.ts'];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

async function handlers(file: string): Promise<[string, RouteHandler][]> {
  const mod = (await import(path.join(apiDir, file))) as Record<string, RouteHandler>;
  return METHODS.flatMap((m) => (mod[m] ? [[m, mod[m]] as [string, RouteHandler]] : []));
}

/** A request that only declares its size: a route that looked at the body would hang or fail, not answer 413. */
const declaring = (method: string, bytes: number) =>
  new Request('http://localhost/api/x', { method, headers: { 'content-length': String(bytes), 'content-type': 'application/json' } });
const params = { params: Promise.resolve({ id: '1', slug: 'demo', name: 'set', token: 'token', qid: 'q1', number: '1', entityId: '1', userId: '1' }) };

describe('body limits of the API routes', () => {
  it('every wrapped route refuses a body over its limit (500 MB is over all of them) before signing in or reading it', async () => {
    const checked: string[] = [];
    for (const file of routeFiles.filter((f) => !UNWRAPPED.includes(f))) {
      for (const [method, handler] of await handlers(file)) {
        const res = await handler(declaring(method, 500 * 1024 * 1024), params);
        expect(res.status, `${method} ${file}`).toBe(413);
        checked.push(`${method} ${file}`);
      }
    }
    expect(checked.length).toBeGreaterThan(60);
  });

  it.each([
    ['participate/[token]/ratings/route.ts', 'PUT', 64 * 1024, '64 KiB'],
    ['kbs/[slug]/metapaths/evaluate/route.ts', 'POST', 64 * 1024, '64 KiB'],
    ['assignments/[id]/judgments/route.ts', 'POST', 1024 * 1024, '1 MiB'],
    ['assignments/[id]/draft/route.ts', 'PUT', 1024 * 1024, '1 MiB'],
    ['assignments/[id]/approve/route.ts', 'POST', 2 * 1024 * 1024, '2 MiB'],
    ['kbs/[slug]/campaigns/route.ts', 'POST', 16 * 1024 * 1024, '16 MiB'],
  ])('%s %s takes at most %i bytes (%s)', async (file, method, limit, named) => {
    const handler = Object.fromEntries(await handlers(file))[method]!;
    const res = await handler(declaring(method, limit + 1), params);
    expect(res.status).toBe(413);
    expect((await res.json()).error).toBe(`The request body is larger than this route's limit of ${named}`);
  });
});
