import { expect, type APIRequestContext } from '@playwright/test';
import { PUBLIC_KB } from './fixtures';
import type { SecurityFixtures } from './security-setup';

/**
 * Every page route of the app (app/**\/page.tsx) with real ids, and who looks at it: what the checks that run over
 * every page (widths, keyboard) open. Made on top of the security fixtures, with what those lack: a study link,
 * a release of the set and a stored LLM call.
 */

export type Who = 'anonymous' | 'admin' | 'owner' | 'rater';

export interface PageTable {
  /** A study link that makes participants (/join/[token]). */
  studyLinkToken: string;
  pages: { path: string; who: Who }[];
}

async function ok<T>(res: Awaited<ReturnType<APIRequestContext['get']>>, status: number): Promise<T> {
  expect(res.status(), `${res.url()}: ${await res.text()}`).toBe(status);
  return (await res.json()) as T;
}

export async function setUpPageTable(f: SecurityFixtures, name: string): Promise<PageTable> {
  const admin = f.callers.admin.request;
  const tag = `${name}-${Date.now().toString(36)}`;
  const { entityId, otherEntityId, querySet, qid, runId } = f.perKb.public;
  const studyLinkToken = (await ok<{ linkToken: string }>(await admin.post(`/api/kbs/${PUBLIC_KB.slug}/studies`, {
    data: { name: tag, consent: 'I agree.', sources: [{ querySet, sample: 3 }], itemsPerParticipant: 2, participantsPerItem: 3, open: true },
  }), 201)).linkToken;
  // A release of the set; when an earlier run (or another spec) released it unchanged, that one.
  const releases = `/api/kbs/${PUBLIC_KB.slug}/query-sets/${querySet}/releases`;
  const made = await admin.post(releases, { data: { name: tag } });
  expect([201, 409], await made.text()).toContain(made.status());
  const releaseNumber = made.status() === 201
    ? ((await made.json()) as { number: number }).number
    : (await ok<{ items: { number: number }[] }>(await admin.get(releases), 200)).items[0]!.number;
  // A synthesis preview through the stand-in LLM stores the calls the LLM-call page shows.
  const { items: templates } = await ok<{ items: { key: string }[] }>(
    await admin.get(`/api/kbs/${PUBLIC_KB.slug}/synthesis/templates?seedType=product&steps=1&limit=1`), 200);
  const { items } = await ok<{ items: { provenance?: { llmCallIds?: number[] } }[] }>(
    await admin.post(`/api/kbs/${PUBLIC_KB.slug}/synthesis/preview`, { data: { templates: [templates[0]!.key], count: 3 } }), 200);
  const llmCallId = items.flatMap((i) => i.provenance?.llmCallIds ?? [])[0]!;
  expect(llmCallId, 'the preview called the LLM').toBeGreaterThan(0);

  const kb = `/kb/${PUBLIC_KB.slug}`;
  const set = `${kb}/queries/${querySet}`;
  const campaign = `${kb}/campaigns/${f.campaignId}`;
  const study = `${kb}/studies/${f.studyId}`;
  return {
    studyLinkToken,
    pages: [
      { path: '/login', who: 'anonymous' },
      { path: `/join/${studyLinkToken}`, who: 'anonymous' },
      { path: `/rate/${f.participantToken}`, who: 'anonymous' },
      { path: '/', who: 'admin' },
      { path: '/admin/import', who: 'admin' },
      { path: '/admin/users', who: 'admin' },
      { path: `/imports/${f.importId}`, who: 'admin' },
      { path: kb, who: 'admin' },
      { path: `${kb}/search?q=tent`, who: 'admin' },
      { path: `${kb}/entities/${entityId}`, who: 'admin' },
      { path: `${kb}/graph?entity=${entityId}`, who: 'admin' },
      { path: `${kb}/metapaths`, who: 'admin' },
      { path: `${kb}/paths?from=${entityId}&to=${otherEntityId}`, who: 'admin' },
      { path: `${kb}/queries`, who: 'admin' },
      { path: `${kb}/queries/import`, who: 'admin' },
      ...['queries', 'stats', 'releases', 'runs'].map((tab) => ({ path: `${set}?tab=${tab}`, who: 'admin' as const })),
      { path: `${set}/q/${encodeURIComponent(qid)}`, who: 'admin' },
      { path: `${set}/releases/${releaseNumber}`, who: 'admin' },
      { path: `${set}/runs/${runId}`, who: 'admin' },
      { path: `${kb}/campaigns`, who: 'admin' },
      { path: `${kb}/campaigns/new`, who: 'admin' },
      { path: campaign, who: 'admin' },
      { path: `${campaign}/review`, who: 'admin' },
      { path: `${campaign}/review/${f.seedEntityId}`, who: 'admin' },
      { path: `${campaign}/work/${f.assignmentId}`, who: 'owner' },
      { path: `${kb}/studies`, who: 'admin' },
      { path: `${kb}/studies/new`, who: 'admin' },
      { path: study, who: 'admin' },
      { path: `${study}/results`, who: 'admin' },
      { path: `${study}/rate`, who: 'rater' },
      { path: `${kb}/synthesize`, who: 'admin' },
      { path: `${kb}/llm-calls/${llmCallId}`, who: 'admin' },
    ],
  };
}

/** The request context whose session cookies sign a browser in as `who` (null: signed out). */
export function requestOf(f: SecurityFixtures, who: Who): APIRequestContext | null {
  return { anonymous: null, admin: f.callers.admin.request, owner: f.owner, rater: f.callers.rater.request }[who];
}
