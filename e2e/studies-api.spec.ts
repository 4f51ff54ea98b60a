import { expect, type APIRequestContext, type PlaywrightWorkerArgs } from '@playwright/test';
import { apiSignIn, CURATOR, PUBLIC_KB, RATER, test } from './fixtures';

/**
 * Study routes over HTTP: managers define and read, anonymous participants hold only a token, and a token
 * reaches its own study alone.
 */
async function context(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string | undefined, email?: string): Promise<APIRequestContext> {
  const request = await playwright.request.newContext({ baseURL });
  if (email) await apiSignIn(request, email);
  return request;
}

test('an anonymous participant rates through the study link; roles, tokens and closing are enforced', async ({ playwright, baseURL }) => {
  const curator = await context(playwright, baseURL, CURATOR);
  const name = `api-study-${Date.now().toString(36)}`;
  const define = (n: string) => curator.post(`/api/kbs/${PUBLIC_KB.slug}/studies`, {
    data: { name: n, consent: 'I agree.', sources: [{ querySet: 'demo-catalogue-questions', sample: 6 }], itemsPerParticipant: 3, participantsPerItem: 1, open: true },
  });
  const created = await define(name);
  expect(created.status(), await created.text()).toBe(201);
  const { id, items, linkToken } = (await created.json()) as { id: number; items: number; linkToken: string };
  expect(items).toBe(6);
  const other = (await (await define(`${name}-other`)).json()) as { id: number; linkToken: string };

  const anonymous = await context(playwright, baseURL);
  expect((await anonymous.get(`/api/studies/${id}/results`)).status()).toBe(401);
  expect((await anonymous.post('/api/join/not-a-real-link-token-000000000000')).status()).toBe(404);
  const { token } = (await (await anonymous.post(`/api/join/${linkToken}`)).json()) as { token: string };
  // The view is read-only: items are handed out by the explicit start, however often the view is read.
  for (let i = 0; i < 2; i++) {
    const read = (await (await anonymous.get(`/api/participate/${token}`)).json()) as { study: { name: string }; items: unknown[]; participant: { startedAt: string | null } };
    expect(read).toMatchObject({ study: { name }, items: [], participant: { startedAt: null } });
  }
  const started = await anonymous.post(`/api/participate/${token}/start`);
  expect(started.status()).toBe(200);
  const view = (await started.json()) as { study: { name: string }; items: { itemId: number }[] };
  expect(view.items).toHaveLength(3);
  expect(((await (await anonymous.get(`/api/participate/${token}`)).json()) as { items: unknown[] }).items).toHaveLength(3);
  const item = view.items[0]!.itemId;
  const rate = (value: unknown, itemId = item, t = token) => anonymous.put(`/api/participate/${t}/ratings`, { data: { itemId, dimension: 'naturalness', value } });
  expect((await rate(4)).status()).toBe(409);
  expect((await anonymous.post(`/api/participate/${token}/consent`)).status()).toBe(200);
  expect((await rate(7)).status()).toBe(400);
  expect((await rate(4)).status()).toBe(200);
  expect((await rate(4)).status()).toBe(200);

  // Another study's participant cannot touch this study's items.
  const { token: stranger } = (await (await anonymous.post(`/api/join/${other.linkToken}`)).json()) as { token: string };
  await anonymous.post(`/api/participate/${stranger}/start`);
  await anonymous.post(`/api/participate/${stranger}/consent`);
  expect((await rate(3, item, stranger)).status()).toBe(404);

  const rater = await context(playwright, baseURL, RATER);
  expect((await rater.get(`/api/studies/${id}`)).status()).toBe(403);
  expect((await rater.get(`/api/studies/${id}/results`)).status()).toBe(403);
  // A rater's view makes no participation; starting makes it and hands out the items.
  expect(((await (await rater.get(`/api/studies/${id}/me`)).json()) as { items: unknown[] }).items).toEqual([]);
  expect((await (await curator.get(`/api/studies/${id}/participants`)).json() as { items: { account: string | null }[] }).items.filter((p) => p.account)).toEqual([]);
  const own = (await (await rater.post(`/api/studies/${id}/me/start`)).json()) as { items: unknown[] };
  expect(own.items).toHaveLength(3);
  expect(((await (await rater.get(`/api/studies/${id}/me`)).json()) as { items: unknown[] }).items).toEqual(own.items);

  const results = (await (await curator.get(`/api/studies/${id}/results`)).json()) as { ratings: number; dimensions: { key: string; overall: { n: number; mean: number } }[] };
  expect(results.ratings).toBe(1);
  expect(results.dimensions.find((d) => d.key === 'naturalness')!.overall).toMatchObject({ n: 1, mean: 4 });
  const csv = await curator.get(`/api/studies/${id}/export?format=ratings-csv`);
  expect(csv.headers()['content-disposition']).toContain(`study-${id}-ratings.csv`);
  expect((await csv.text()).trim().split('\n')).toHaveLength(2);

  // Joins through one link from one address are limited: the sixth within ten minutes waits, and is told how long.
  let accepted = 1;
  let refused = await anonymous.post(`/api/join/${other.linkToken}`);
  for (; refused.status() === 200 && accepted < 12; accepted++) refused = await anonymous.post(`/api/join/${other.linkToken}`);
  expect(accepted).toBe(5);
  expect(refused.status()).toBe(429);
  expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(500);
  expect(((await refused.json()) as { error: string }).error).toMatch(/try again in \d+ minutes/);

  expect((await curator.patch(`/api/studies/${id}`, { data: { status: 'CLOSED' } })).status()).toBe(200);
  expect((await rate(5)).status()).toBe(409);
  expect((await anonymous.post(`/api/join/${linkToken}`)).status()).toBe(409);
  for (const r of [curator, anonymous, rater]) await r.dispose();
});
