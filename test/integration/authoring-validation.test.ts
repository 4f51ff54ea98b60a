import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { claimNext } from '../../lib/authoring/assignments';
import { campaignDetail } from '../../lib/authoring/campaign-detail';
import { candidates } from '../../lib/authoring/candidates';
import { judge, saveDraft } from '../../lib/authoring/drafts';
import { approveQuery, seedReview } from '../../lib/authoring/review';
import { submitAssignment } from '../../lib/authoring/submit';
import { createValidationCampaign } from '../../lib/authoring/validation-campaign';
import { workspace } from '../../lib/authoring/workspace';
import type { SessionUser } from '../../lib/auth/session';
import { createUser } from '../../lib/auth/users';
import { Role } from '../../lib/auth/roles';
import { AppError } from '../../lib/errors';
import { getQuerySet } from '../../lib/queries/sets';
import type { Provenance } from '../../lib/synthesis/types';
import { db, openAppDatabase, pool } from '../support/app-database';
import { ibdIds, importIbd, readIbdEdges } from '../support/primekg-ibd';
import type { TestDatabase } from '../support/test-database';

// The route runs as it does in the app, for whoever `currentUser` says is signed in.
const session = vi.hoisted(() => ({ user: null as SessionUser | null }));
vi.mock('../../lib/auth/session', () => ({ currentUser: async () => session.user }));

let testDb: TestDatabase;
let kbId: number;
let idOf: Map<string, number>;
const users = {} as Record<'curator' | 'annotator' | 'reviewer', SessionUser>;

/** A gene targeted by at least four drugs: the seed, and the drugs the template reaches from it. */
interface Seeded { gene: string; drugs: string[] }
let first: Seeded;
let second: Seeded;
const TEMPLATE = 'gene/protein -[target]<- drug';

function provenance(seed: Seeded, position: number, kept: string[], removed: { id: string; reason: string }[]): Provenance {
  return {
    jobId: 1, position, template: { key: TEMPLATE, words: 'a drug that targets <gene/protein>' },
    seeds: [{ id: seed.gene, name: 'the gene' }], propertySource: null, properties: [],
    relationalAnswers: seed.drugs, kept, removed, votes: [], llmCallIds: [],
    methods: { properties: 'extractor', compose: 'realiser', filter: ['term-evidence'] }, prompts: [],
  };
}

async function addQuery(setId: number, position: number, id: string, text: string, seeds: string[], answers: string[], synthesis: Provenance | null) {
  await pool().query(
    `INSERT INTO query (set_id, external_id, position, text, answer_ids, seed_ids, metadata) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [setId, id, position, text, answers, seeds, JSON.stringify(synthesis ? { origin: 'synthesized', synthesis } : {})]);
}

beforeAll(async () => {
  testDb = await openAppDatabase();
  kbId = await importIbd(pool());
  ({ idOf } = await ibdIds(pool(), kbId));
  for (const [key, role] of [['curator', Role.CURATOR], ['annotator', Role.ANNOTATOR], ['reviewer', Role.CURATOR]] as const) {
    users[key] = await createUser(db(), { email: `${key}@example.org`, password: 'a long password', role }) as SessionUser;
  }
  // Straight from the edge file: genes with the drugs that target them.
  const drugsOf = new Map<string, Set<string>>();
  for (const e of readIbdEdges()) {
    if (e.relation === 'target' && e.sourceType === 'drug' && e.targetType === 'gene/protein') drugsOf.set(e.target, (drugsOf.get(e.target) ?? new Set()).add(e.source));
  }
  const [a, b] = [...drugsOf].filter(([, drugs]) => drugs.size >= 4).map(([gene, drugs]) => ({ gene, drugs: [...drugs].sort() }));
  first = a!;
  second = b!;

  const { rows: [set] } = await pool().query<{ id: number }>(`INSERT INTO query_set (kb_id, name, origin) VALUES ($1, 'synth', 'SYNTHESIZED') RETURNING id`, [kbId]);
  await addQuery(set!.id, 0, 'syn-1-0', 'Which drug targets this gene and is taken by mouth?', [first.gene],
    first.drugs.slice(0, 2), provenance(first, 0, first.drugs.slice(0, 2), [{ id: first.drugs[2]!, reason: 'its document says nothing of oral use' }]));
  await addQuery(set!.id, 1, 'syn-1-1', 'Another query on the same seed', [first.gene], first.drugs.slice(1, 2), provenance(first, 1, first.drugs.slice(1, 2), []));
  await addQuery(set!.id, 2, 'syn-1-2', 'Which drug targets the second gene?', [second.gene], second.drugs.slice(0, 1), provenance(second, 2, second.drugs.slice(0, 1), []));
  await addQuery(set!.id, 3, 'syn-1-3', 'A query without a seed', [], second.drugs.slice(0, 1), null);
});
afterAll(async () => testDb.drop());

const failure = async (p: Promise<unknown>) => (await p.catch((e: unknown) => e)) as AppError;

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function post(user: SessionUser, slug: string, name: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  session.user = user;
  const { POST } = (await import('../../app/api/kbs/[slug]/query-sets/[name]/validation-campaign/route')) as unknown as Record<'POST', Handler>;
  const req = new Request(`http://localhost/api/kbs/${slug}/query-sets/${name}/validation-campaign`, {
    method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' },
  });
  const res = await POST(req, { params: Promise.resolve({ slug, name }) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('a validation campaign from a synthesized set', () => {
  let campaignId: number;
  let assignment: { id: number; entityId: number };

  it('is created through the route with one seed per query, the duplicates and seedless queries left out by id', async () => {
    const res = await post(users.curator, 'ibd', 'synth', { name: 'check-synth', querySet: 'synth-validated', annotators: ['annotator@example.org'], annotatorsPerSeed: 1 });
    expect(res.status).toBe(201);
    expect(res.body.seeds).toBe(2);
    expect(res.body.leftOut).toEqual([
      { id: 'syn-1-1', reason: `its seed "${first.gene}" is validated through query syn-1-0` },
      { id: 'syn-1-3', reason: 'the query has no seed' },
    ]);
    campaignId = res.body.id as number;
    const { rows } = await pool().query<{ entity: number; query: string; position: number }>(
      `SELECT s.entity_id AS entity, q.external_id AS query, s.position FROM campaign_seed s JOIN query q ON q.id = s.query_id WHERE s.campaign_id = $1 ORDER BY s.position`, [campaignId]);
    expect(rows).toEqual([{ entity: idOf.get(first.gene), query: 'syn-1-0', position: 0 }, { entity: idOf.get(second.gene), query: 'syn-1-2', position: 1 }]);
    const target = await getQuerySet(pool(), kbId, 'synth-validated');
    expect(target.origin).toBe('human');
    const { rows: [c] } = await pool().query('SELECT kind, leak_policy, query_set_id FROM campaign WHERE id = $1', [campaignId]);
    expect(c).toEqual({ kind: 'validation', leak_policy: 'warn', query_set_id: target.id });
    expect((await campaignDetail(pool(), campaignId, users.curator.id)).campaign).toMatchObject({ validates: 'synth', querySet: 'synth-validated', seeds: 2 });
  });

  it('refuses an annotator, a target that is the set itself, and names bad fields', async () => {
    const asAnnotator = await post(users.annotator, 'ibd', 'synth', { name: 'x', querySet: 'x-q', annotatorIds: [users.annotator.id] });
    expect(asAnnotator.status).toBe(403);
    const same = await post(users.curator, 'ibd', 'synth', { name: 'x', querySet: 'synth', annotatorIds: [users.annotator.id] });
    expect(same.status).toBe(400);
    expect(same.body.error).toMatch(/^querySet: /);
    const bad = await post(users.curator, 'ibd', 'synth', { name: 'a b', querySet: 'x-q', annotatorsPerSeed: 99 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/name/);
    expect(JSON.stringify(bad.body)).toMatch(/annotatorsPerSeed/);
    expect(JSON.stringify(bad.body)).toMatch(/annotatorIds/);
    const { rows } = await pool().query(`SELECT 1 FROM campaign WHERE name = 'x'`);
    expect(rows).toEqual([]);
  });

  it('starts the draft from the query and its template, and lists the suggestions without judging anything', async () => {
    assignment = (await claimNext(pool(), campaignId, users.annotator.id))!;
    expect(assignment.entityId).toBe(idOf.get(first.gene));
    const ws = await workspace(pool(), assignment.id, users.annotator.id);
    expect(ws.campaign.kind).toBe('validation');
    expect(ws.draft.text).toBe('Which drug targets this gene and is taken by mouth?');
    expect(ws.draft.version).toBe(1);
    const requirement = { paths: [{ start: { entity: idOf.get(first.gene) }, steps: [{ relation: 'target', direction: 'in', targetType: 'drug' }] }] };
    expect(ws.draft.requirement).toEqual(requirement);
    // The query names its seed by design: no leak is reported.
    expect(ws.leaks).toEqual([]);
    expect(ws.judgments).toEqual([]);
    expect(ws.suggestions.map((s) => [s.externalId, s.label, s.source, s.reason])).toEqual([
      [first.drugs[0], 'relevant', 'synthesis', null],
      [first.drugs[1], 'relevant', 'synthesis', null],
      [first.drugs[2], 'not_relevant', 'synthesis', 'its document says nothing of oral use'],
    ]);
    // The prefilled requirement is one the metapath engine reads: its candidates are the drugs of the edge file.
    const page = await candidates(pool(), assignment.id, users.annotator.id, { paths: requirement.paths as never, queryText: '', limit: 100, offset: 0 });
    expect(page.items.map((i) => i.id).sort((x, y) => x - y)).toEqual(first.drugs.map((d) => idOf.get(d)!).sort((x, y) => x - y));
    const { rows } = await pool().query('SELECT 1 FROM judgment WHERE assignment_id = $1', [assignment.id]);
    expect(rows).toEqual([]);
  });

  it('records an accepted suggestion as an ordinary judgment of the annotator, and submits without the seed as an answer', async () => {
    const noAnswer = await failure(submitAssignment(pool(), assignment.id, users.annotator.id, 1));
    expect(noAnswer.status).toBe(400);
    expect(noAnswer.message).toMatch(/^answers: /);
    const accepted = idOf.get(first.drugs[0]!)!;
    await judge(pool(), assignment.id, users.annotator.id, { entityId: accepted, label: 'relevant', version: 0 });
    const ws = await workspace(pool(), assignment.id, users.annotator.id);
    expect(ws.judgments).toEqual([{ entityId: accepted, externalId: first.drugs[0], name: expect.any(String), type: 'drug', label: 'relevant', evidence: [], version: 1 }]);
    expect(ws.suggestions).toHaveLength(3);
    const saved = await saveDraft(pool(), assignment.id, users.annotator.id, { text: `${ws.draft.text} Named: ${ws.seed.name}`, requirement: ws.draft.requirement, version: 1 });
    expect(saved.leaks).toEqual([]);
    const submitted = await submitAssignment(pool(), assignment.id, users.annotator.id, saved.version);
    expect(submitted.answers).toEqual([accepted]);

    const review = await seedReview(pool(), campaignId, assignment.entityId);
    expect(review.seedIsAnswer).toBe(false);
    expect(review.entities.map((e) => e.entityId)).toEqual([accepted]);
    const approved = await approveQuery(pool(), assignment.id, users.reviewer.id, { decisions: [{ entityId: accepted, accept: true }] });
    expect(approved.answers).toEqual([first.drugs[0]]);
    const { rows: [q] } = await pool().query<{ answer_ids: string[]; seed_ids: string[]; validated: unknown }>(
      `SELECT answer_ids, seed_ids, metadata->'validatedFrom' AS validated FROM query q JOIN query_set s ON s.id = q.set_id WHERE s.name = 'synth-validated'`);
    expect(q).toEqual({ answer_ids: [first.drugs[0]], seed_ids: [first.gene], validated: { querySet: 'synth', query: 'syn-1-0' } });
  });

  it('suggests the answers of a set that was not synthesized, and leaves its queries without a requirement', async () => {
    const { rows: [set] } = await pool().query<{ id: number }>(`INSERT INTO query_set (kb_id, name, origin) VALUES ($1, 'imported-seeded', 'IMPORTED') RETURNING id`, [kbId]);
    await addQuery(set!.id, 0, 'q1', 'Which drug treats it?', [second.gene], second.drugs.slice(0, 2), null);
    const created = await createValidationCampaign(pool(), kbId, await getQuerySet(pool(), kbId, 'imported-seeded'),
      { name: 'check-imported', querySet: 'imported-validated', annotatorIds: [users.annotator.id], annotatorsPerSeed: 1, guidelines: 'g', leaseMinutes: 60, open: true }, users.curator.id);
    expect(created).toEqual({ id: expect.any(Number), seeds: 1, leftOut: [] });
    const a = (await claimNext(pool(), created.id, users.annotator.id))!;
    const ws = await workspace(pool(), a.id, users.annotator.id);
    expect(ws.draft).toMatchObject({ text: 'Which drug treats it?', requirement: null, version: 1 });
    expect(ws.suggestions.map((s) => [s.externalId, s.label, s.source])).toEqual(second.drugs.slice(0, 2).map((d) => [d, 'relevant', 'set']));
  });

  it('is not offered on a private knowledge base to someone outside it', async () => {
    const { rows: [kb] } = await pool().query<{ id: number }>(`UPDATE knowledge_base SET visibility = 'PRIVATE' WHERE id = $1 RETURNING id`, [kbId]);
    try {
      const outsider = await post(users.curator, 'ibd', 'synth', { name: 'y', querySet: 'y-q', annotatorIds: [users.annotator.id] });
      expect(outsider.status).toBe(404);
      await pool().query('INSERT INTO kb_member (kb_id, user_id) VALUES ($1, $2)', [kb!.id, users.curator.id]);
      // A member may, but not with annotators who cannot see the knowledge base.
      const outsiders = await post(users.curator, 'ibd', 'synth', { name: 'y', querySet: 'y-q', annotatorIds: [users.annotator.id] });
      expect(outsiders.status).toBe(400);
      expect(outsiders.body.error).toMatch(/annotator@example.org cannot see this private knowledge base/);
    } finally {
      await pool().query(`UPDATE knowledge_base SET visibility = 'PUBLIC' WHERE id = $1`, [kbId]);
    }
  });
});

describe('authoring campaigns keep their rule', () => {
  it('the seed stays an answer of an authoring campaign\'s submission', async () => {
    const { createCampaign } = await import('../../lib/authoring/campaigns');
    const { id } = await createCampaign(pool(), kbId, { name: 'plain', guidelines: 'g', annotatorsPerSeed: 1, leaseMinutes: 60, leakPolicy: 'warn', querySet: 'plain-q', annotatorIds: [users.annotator.id], open: true },
      { mode: 'list', text: `${first.gene}\n`, file: 'seeds.txt' }, null);
    const a = (await claimNext(pool(), id, users.annotator.id))!;
    expect((await workspace(pool(), a.id, users.annotator.id)).draft).toMatchObject({ text: '', version: 0 });
    expect((await campaignDetail(pool(), id, users.curator.id)).campaign.validates).toBeNull();
    const { version } = await saveDraft(pool(), a.id, users.annotator.id, { text: 'Which drugs?', version: 0 });
    expect((await submitAssignment(pool(), a.id, users.annotator.id, version)).answers).toEqual([idOf.get(first.gene)]);
  });
});
