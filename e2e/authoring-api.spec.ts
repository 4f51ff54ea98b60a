import { expect, test, type APIRequestContext, type PlaywrightWorkerArgs } from '@playwright/test';
import { ADMIN, ANNOTATOR, apiSignIn, CURATOR, PUBLIC_KB, RATER } from './fixtures';

/**
 * The annotator's API journey on the demo catalogue: a curator opens a campaign, the annotator gets a seed,
 * autosaves a draft (the leak of the seed's name reported), lists the candidates of a relational
 * requirement, judges one and submits. Roles and campaign membership are enforced.
 */
async function signedIn(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string | undefined, email: string): Promise<APIRequestContext> {
  const request = await playwright.request.newContext({ baseURL });
  await apiSignIn(request, email);
  return request;
}

test('a curator opens a campaign; the annotator claims a seed, drafts, judges candidates and submits', async ({ playwright, baseURL }) => {
  const curator = await signedIn(playwright, baseURL, CURATOR);
  const name = `api-campaign-${Date.now().toString(36)}`;
  const created = await curator.post(`/api/kbs/${PUBLIC_KB.slug}/campaigns`, {
    data: { name, annotatorsPerSeed: 1, querySet: `${name}-queries`, annotators: [ANNOTATOR], seeds: { mode: 'random', count: 2, types: ['product'], seed: 11 } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id: campaignId, seeds } = (await created.json()) as { id: number; seeds: number };
  expect(seeds).toBe(2);
  const listed = (await (await curator.get(`/api/kbs/${PUBLIC_KB.slug}/campaigns`)).json()) as { items: { id: number; seeds: number; status: string }[] };
  expect(listed.items.find((c) => c.id === campaignId)).toMatchObject({ seeds: 2, status: 'OPEN' });

  const rater = await signedIn(playwright, baseURL, RATER);
  expect((await rater.post(`/api/campaigns/${campaignId}/claim`)).status()).toBe(403);
  const admin = await signedIn(playwright, baseURL, ADMIN);
  const outsider = await admin.post(`/api/campaigns/${campaignId}/claim`);
  expect(outsider.status()).toBe(403);
  expect(((await outsider.json()) as { error: string }).error).toMatch(/not an annotator of this campaign/);

  const annotator = await signedIn(playwright, baseURL, ANNOTATOR);
  const claim = (await (await annotator.post(`/api/campaigns/${campaignId}/claim`)).json()) as { assignment: { id: number; entityId: number } };
  const again = (await (await annotator.post(`/api/campaigns/${campaignId}/claim`)).json()) as { assignment: { id: number } };
  expect(again.assignment.id).toBe(claim.assignment.id);
  const seed = (await (await annotator.get(`/api/kbs/${PUBLIC_KB.slug}/entities/${claim.assignment.entityId}`)).json()) as { name: string };

  const leaky = await annotator.put(`/api/assignments/${claim.assignment.id}/draft`, { data: { text: `Is ${seed.name} any good?`, version: 0 } });
  expect(leaky.status()).toBe(200);
  expect(((await leaky.json()) as { leaks: { name: string }[]; version: number })).toMatchObject({ version: 1, leaks: [{ name: seed.name }] });
  const requirement = { paths: [{ start: { entity: claim.assignment.entityId }, steps: [{ relation: 'has_brand', direction: 'out', targetType: 'brand' }] }] };
  const saved = await annotator.put(`/api/assignments/${claim.assignment.id}/draft`, { data: { text: 'Which tent brand makes a two-person shelter?', requirement, version: 1 } });
  expect(((await saved.json()) as { leaks: unknown[]; version: number })).toMatchObject({ version: 2, leaks: [] });
  const stale = await annotator.put(`/api/assignments/${claim.assignment.id}/draft`, { data: { text: 'from another tab', version: 1 } });
  expect(stale.status()).toBe(409);

  const page = (await (await annotator.post(`/api/assignments/${claim.assignment.id}/candidates`, { data: { ...requirement, queryText: 'tent brand' } })).json()) as { total: number; judged: number; items: { id: number; type: string }[] };
  expect(page.total).toBe(1);
  expect(page.items[0]!.type).toBe('brand');
  const judged = await annotator.post(`/api/assignments/${claim.assignment.id}/judgments`, { data: { entityId: page.items[0]!.id, label: 'relevant', version: 0 } });
  expect(judged.status(), await judged.text()).toBe(200);
  const bad = await annotator.post(`/api/assignments/${claim.assignment.id}/judgments`, { data: { entityId: page.items[0]!.id, label: 'maybe', version: 1 } });
  expect(bad.status()).toBe(400);

  // Someone else's assignment does not exist for the caller.
  expect((await curator.put(`/api/assignments/${claim.assignment.id}/draft`, { data: { text: 'mine now', version: 2 } })).status()).toBe(404);

  const submitted = await annotator.post(`/api/assignments/${claim.assignment.id}/submit`, { data: { draftVersion: 2 } });
  expect(submitted.status(), await submitted.text()).toBe(200);
  expect(((await submitted.json()) as { answers: number[] }).answers).toEqual([claim.assignment.entityId, page.items[0]!.id]);
  const next = (await (await annotator.post(`/api/campaigns/${campaignId}/claim`)).json()) as { assignment: { id: number; entityId: number } | null };
  expect(next.assignment).not.toBeNull();
  expect(next.assignment!.entityId).not.toBe(claim.assignment.entityId);
  for (const r of [curator, rater, admin, annotator]) await r.dispose();
});
