import { expect, type APIRequestContext, type PlaywrightWorkerArgs } from '@playwright/test';
import { ADMIN, ANNOTATOR, apiSignIn, CURATOR, PUBLIC_KB, RATER, test } from './fixtures';

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

test('review routes: only managers review, never their own work; a returned assignment is the author\'s to edit again', async ({ playwright, baseURL }) => {
  const curator = await signedIn(playwright, baseURL, CURATOR);
  const name = `api-review-${Date.now().toString(36)}`;
  const created = await curator.post(`/api/kbs/${PUBLIC_KB.slug}/campaigns`, {
    data: { name, annotatorsPerSeed: 1, querySet: `${name}-queries`, annotators: [ANNOTATOR, CURATOR], seeds: { mode: 'random', count: 1, types: ['product'], seed: 5 } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id: campaignId } = (await created.json()) as { id: number };
  const annotator = await signedIn(playwright, baseURL, ANNOTATOR);
  const { assignment } = (await (await annotator.post(`/api/campaigns/${campaignId}/claim`)).json()) as { assignment: { id: number; entityId: number } };
  await annotator.put(`/api/assignments/${assignment.id}/draft`, { data: { text: 'Which shelter sleeps two?', version: 0 } });
  expect((await annotator.post(`/api/assignments/${assignment.id}/submit`, { data: { draftVersion: 1 } })).status()).toBe(200);

  // Annotators neither see the dashboard nor review.
  for (const path of [`/api/campaigns/${campaignId}/stats`, `/api/campaigns/${campaignId}/review`, `/api/campaigns/${campaignId}/review/${assignment.entityId}`]) {
    expect((await annotator.get(path)).status(), path).toBe(403);
  }
  expect((await annotator.post(`/api/assignments/${assignment.id}/return`, { data: { note: 'x' } })).status()).toBe(403);
  const detail = (await (await annotator.get(`/api/campaigns/${campaignId}`)).json()) as { isAnnotator: boolean; canManage: boolean; mine: { assignmentId: number; status: string }[] };
  expect(detail).toMatchObject({ isAnnotator: true, canManage: false, mine: [{ assignmentId: assignment.id, status: 'SUBMITTED' }] });

  const queue = (await (await curator.get(`/api/campaigns/${campaignId}/review`)).json()) as { items: { entityId: number; submitted: number }[] };
  expect(queue.items).toEqual([expect.objectContaining({ entityId: assignment.entityId, submitted: 1 })]);
  const emptyNote = await curator.post(`/api/assignments/${assignment.id}/return`, { data: { note: ' ' } });
  expect(emptyNote.status()).toBe(400);
  expect((await curator.post(`/api/assignments/${assignment.id}/return`, { data: { note: 'Name the fabric, not the brand' } })).status()).toBe(200);
  const back = (await (await annotator.get(`/api/assignments/${assignment.id}`)).json()) as { assignment: { status: string; reviewNote: string; editable: boolean } };
  expect(back.assignment).toEqual(expect.objectContaining({ status: 'RETURNED', reviewNote: 'Name the fabric, not the brand', editable: true }));
  expect((await annotator.put(`/api/assignments/${assignment.id}/draft`, { data: { text: 'Which nylon shelter sleeps two?', version: 1 } })).status()).toBe(200);
  expect((await annotator.post(`/api/assignments/${assignment.id}/submit`, { data: { draftVersion: 2 } })).status()).toBe(200);

  const approved = await curator.post(`/api/assignments/${assignment.id}/approve`, { data: { decisions: [] } });
  expect(approved.status(), await approved.text()).toBe(200);
  expect(((await approved.json()) as { answers: string[] }).answers).toHaveLength(1);
  const stats = (await (await curator.get(`/api/campaigns/${campaignId}/stats`)).json()) as { totals: { approved: number; submitted: number } };
  expect(stats.totals).toMatchObject({ approved: 1, submitted: 1 });
  for (const r of [curator, annotator]) await r.dispose();
});

test('parallel claims of one annotator (a double click, a second tab) all answer the same lease, and only one is held', async ({ playwright, baseURL }) => {
  const curator = await signedIn(playwright, baseURL, CURATOR);
  const name = `api-one-lease-${Date.now().toString(36)}`;
  const created = await curator.post(`/api/kbs/${PUBLIC_KB.slug}/campaigns`, {
    data: { name, annotatorsPerSeed: 1, querySet: `${name}-queries`, annotators: [ANNOTATOR], seeds: { mode: 'random', count: 3, types: ['product'], seed: 5 } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id: campaignId } = (await created.json()) as { id: number };
  const tabs = await Promise.all(Array.from({ length: 4 }, () => signedIn(playwright, baseURL, ANNOTATOR)));
  const answers = await Promise.all(tabs.map(async (tab) => {
    const res = await tab.post(`/api/campaigns/${campaignId}/claim`);
    expect(res.status()).toBe(200);
    return ((await res.json()) as { assignment: { id: number } | null }).assignment;
  }));
  expect(answers.every((a) => a !== null)).toBe(true);
  expect(new Set(answers.map((a) => a!.id)).size).toBe(1);
  const detail = (await (await tabs[0]!.get(`/api/campaigns/${campaignId}`)).json()) as { mine: { assignmentId: number; status: string }[] };
  expect(detail.mine).toEqual([expect.objectContaining({ assignmentId: answers[0]!.id, status: 'ACTIVE' })]);
});
