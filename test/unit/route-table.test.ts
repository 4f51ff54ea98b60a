import { describe, expect, it } from 'vitest';
import { fillPattern, loadRouteTable, paramKind, parseRouteSource, routePattern } from '@/e2e/route-table';
import { can, ROLES } from '@/lib/auth/roles';

describe('route table', () => {
  it('reads each exported method and its guard', () => {
    const source = [
      "export const GET = apiRoute<{ slug: string; name: string }>('kb:browse', async ({ user, params }) => {",
      "export const PATCH = apiRoute({ permission: 'queries:manage', bodyLimit: 1024 }, async () => {",
      'export const PUT = publicRoute<{ token: string }>(async ({ req, params }) => {',
      "export const DELETE = apiRoute('users:manage', async () => null);",
    ].join('\n');
    expect(parseRouteSource(source)).toEqual([
      { method: 'GET', guard: { kind: 'session', permission: 'kb:browse' } },
      { method: 'PATCH', guard: { kind: 'session', permission: 'queries:manage' } },
      { method: 'PUT', guard: { kind: 'token' } },
      { method: 'DELETE', guard: { kind: 'session', permission: 'users:manage' } },
    ]);
  });

  it('refuses a method that skips the wrappers', () => {
    expect(() => parseRouteSource('export async function POST(req: Request) {', 'x/route.ts')).toThrow(/x\/route.ts: POST is not wrapped/);
    expect(() => parseRouteSource('export const GET = handler;')).toThrow(/GET is not wrapped/);
  });

  it('turns files into URL patterns and fills them encoded', () => {
    const pattern = routePattern('app/api/kbs/[slug]/query-sets/[name]/runs/[id]/route.ts');
    expect(pattern).toBe('/api/kbs/[slug]/query-sets/[name]/runs/[id]');
    expect(fillPattern(pattern, { slug: 'a', name: 'x y/z', id: '7' })).toBe('/api/kbs/a/query-sets/x%20y%2Fz/runs/7');
    expect(fillPattern(pattern, { slug: 'a', name: 'n', id: '7' }, { id: '%ED%A0%80' })).toBe('/api/kbs/a/query-sets/n/runs/%ED%A0%80');
    expect(() => fillPattern(pattern, { slug: 'a' })).toThrow(/no value for \[name\]/);
    expect(paramKind(pattern, 'id')).toBe('runs/id');
    expect(paramKind(pattern, 'name')).toBe('name');
  });

  it('covers every route file of the app with a known permission', () => {
    const routes = loadRouteTable();
    expect(routes.length).toBeGreaterThan(50);
    expect(routes.some((r) => r.file.includes('[...nextauth]'))).toBe(false);
    for (const route of routes) {
      expect(route.methods.length, route.file).toBeGreaterThan(0);
      for (const { guard } of route.methods) {
        if (guard.kind === 'session') expect(() => ROLES.some((role) => can(role, guard.permission)), route.file).not.toThrow();
      }
    }
    const kbs = routes.find((r) => r.pattern === '/api/kbs/[slug]');
    expect(kbs?.methods.map((m) => m.method)).toEqual(['GET', 'PATCH']);
    expect(routes.find((r) => r.pattern === '/api/participate/[token]')?.methods).toEqual([{ method: 'GET', guard: { kind: 'token' } }]);
    expect(routes.find((r) => r.pattern === '/api/kbs/[slug]/search')).toMatchObject({ readsQuery: true, readsJson: false });
    expect(routes.find((r) => r.pattern === '/api/users')).toMatchObject({ readsQuery: false, readsJson: true });
    expect(routes.find((r) => r.pattern === '/api/kbs/[slug]/embeddings')).toMatchObject({
      methods: [{ method: 'GET', guard: { kind: 'session', permission: 'kb:browse' } }, { method: 'POST', guard: { kind: 'session', permission: 'kb:manage' } }], readsJson: true,
    });
    expect(routes.find((r) => r.pattern === '/api/kbs/[slug]/query-sets/[name]/validation-campaign')).toMatchObject({
      methods: [{ method: 'POST', guard: { kind: 'session', permission: 'queries:manage' } }], readsQuery: false, readsJson: true,
    });
    expect(routes.find((r) => r.pattern === '/api/kbs/[slug]/synthesis/jobs/[id]')).toMatchObject({
      methods: [{ method: 'GET', guard: { kind: 'session', permission: 'queries:manage' } }, { method: 'DELETE', guard: { kind: 'session', permission: 'queries:manage' } }], readsQuery: false, readsJson: false,
    });
    expect(routes.find((r) => r.pattern === '/api/llm/prompts')).toMatchObject({
      methods: [{ method: 'GET', guard: { kind: 'session', permission: 'queries:manage' } }], readsQuery: false, readsJson: false,
    });
    expect(routes.find((r) => r.pattern === '/api/kbs/[slug]/llm-calls/[id]')).toMatchObject({
      params: ['slug', 'id'], methods: [{ method: 'GET', guard: { kind: 'session', permission: 'queries:manage' } }], readsQuery: false, readsJson: false,
    });
    expect(routes.find((r) => r.pattern === '/api/assignments/[id]/difficulty')).toMatchObject({
      methods: [{ method: 'GET', guard: { kind: 'session', permission: 'campaigns:annotate' } }], readsQuery: false, readsJson: false,
    });
    const browse = { kind: 'session', permission: 'kb:browse' };
    expect(routes.find((r) => r.pattern === '/api/kbs/[slug]/views')).toMatchObject({
      params: ['slug'], methods: [{ method: 'GET', guard: browse }, { method: 'POST', guard: browse }], readsQuery: false, readsJson: true,
    });
    expect(routes.find((r) => r.pattern === '/api/kbs/[slug]/views/[id]')).toMatchObject({
      params: ['slug', 'id'], methods: [{ method: 'GET', guard: browse }, { method: 'PATCH', guard: browse }, { method: 'DELETE', guard: browse }], readsQuery: false, readsJson: true,
    });
    expect(paramKind('/api/kbs/[slug]/views/[id]', 'id')).toBe('views/id');
    const manage = { kind: 'session', permission: 'queries:manage' };
    expect(routes.find((r) => r.pattern === '/api/studies/[id]/model-raters')).toMatchObject({
      methods: [{ method: 'GET', guard: manage }, { method: 'POST', guard: manage }, { method: 'DELETE', guard: manage }], readsQuery: true, readsJson: true,
    });
  });
});
