import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { claimNext } from '../../lib/authoring/assignments';
import { auditErrors } from '../../lib/authoring/audit-errors';
import { approveAudit, auditItemReview, auditReviewQueue } from '../../lib/authoring/audit-review';
import { auditWorkspace, saveAuditFlags, submitAudit } from '../../lib/authoring/audit-work';
import { createAuditCampaign } from '../../lib/authoring/audit-campaign';
import { judge, saveDraft } from '../../lib/authoring/drafts';
import { approveQuery, returnAssignment } from '../../lib/authoring/review';
import { submitAssignment } from '../../lib/authoring/submit';
import { campaignStats } from '../../lib/authoring/stats';
import type { SessionUser } from '../../lib/auth/session';
import { createUser } from '../../lib/auth/users';
import { Role } from '../../lib/auth/roles';
import { AppError } from '../../lib/errors';
import { getQuery } from '../../lib/queries/edit';
import { createRelease, diffReleases } from '../../lib/queries/releases';
import { getQuerySet } from '../../lib/queries/sets';
import { db, openAppDatabase, pool } from '../support/app-database';
import { ibdIds, importIbd, readIbdEdges } from '../support/primekg-ibd';
import type { TestDatabase } from '../support/test-database';

// The routes run as they do in the app, for whoever `currentUser` says is signed in.
const session = vi.hoisted(() => ({ user: null as SessionUser | null }));
vi.mock('../../lib/auth/session', () => ({ currentUser: async () => session.user }));

let testDb: TestDatabase;
let kbId: number;
let idOf: Map<string, number>;
const users = {} as Record<'curator' | 'annotator' | 'second' | 'reviewer', SessionUser>;
/** A gene and four drugs that target it, straight from the edge file. */
let gene: string;
let drugs: string[];
const KB = { name: 'IBD', slug: 'ibd' };

async function addSet(name: string, origin: string, queries: [string, string, string[], string[], string | null, Record<string, unknown>][]) {
  const { rows: [set] } = await pool().query<{ id: number }>(`INSERT INTO query_set (kb_id, name, origin) VALUES ($1, $2, $3) RETURNING id`, [kbId, name, origin]);
  for (const [i, [id, text, answers, seeds, split, metadata]] of queries.entries()) {
    await pool().query(`INSERT INTO query (set_id, external_id, position, text, answer_ids, seed_ids, split, metadata) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [set!.id, id, i, text, answers, seeds, split, JSON.stringify(metadata)]);
  }
  return getQuerySet(pool(), kbId, name);
}

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function createThroughRoute(user: SessionUser, set: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  session.user = user;
  const { POST } = (await import('../../app/api/kbs/[slug]/query-sets/[name]/audit-campaign/route')) as unknown as Record<'POST', Handler>;
  const req = new Request(`http://localhost/api/kbs/ibd/query-sets/${set}/audit-campaign`, {
    method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' },
  });
  const res = await POST(req, { params: Promise.resolve({ slug: 'ibd', name: set }) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The annotator's audit screen as the route serves it: GET reads the item, PUT saves the flags. */
async function auditThroughRoute(user: SessionUser, assignmentId: number, method: 'GET' | 'PUT', body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  session.user = user;
  const route = (await import('../../app/api/assignments/[id]/audit/route')) as unknown as Record<'GET' | 'PUT', Handler>;
  const req = new Request(`http://localhost/api/assignments/${assignmentId}/audit`, {
    method, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  const res = await route[method](req, { params: Promise.resolve({ id: String(assignmentId) }) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const failure = async (p: Promise<unknown>) => (await p.catch((e: unknown) => e)) as AppError;
const campaignRows = async () => (await pool().query('SELECT name FROM campaign ORDER BY id')).rows.map((r: { name: string }) => r.name);

beforeAll(async () => {
  testDb = await openAppDatabase();
  kbId = await importIbd(pool());
  ({ idOf } = await ibdIds(pool(), kbId));
  for (const [key, role] of [['curator', Role.CURATOR], ['annotator', Role.ANNOTATOR], ['second', Role.ANNOTATOR], ['reviewer', Role.CURATOR]] as const) {
    users[key] = await createUser(db(), { email: `${key}@example.org`, password: 'a long password', role }) as SessionUser;
  }
  const drugsOf = new Map<string, Set<string>>();
  for (const e of readIbdEdges()) {
    if (e.relation === 'target' && e.sourceType === 'drug' && e.targetType === 'gene/protein') drugsOf.set(e.target, (drugsOf.get(e.target) ?? new Set()).add(e.source));
  }
  [gene, drugs] = [...drugsOf].filter(([, d]) => d.size >= 4).map(([g, d]) => [g, [...d].sort()] as [string, string[]])[0]!;
  await addSet('prime-audit', 'IMPORTED', [
    ['10', 'Which drug targets this gene?', [drugs[0]!, drugs[1]!], [gene], 'train', {}],
    ['11', 'Which drug is it?', [drugs[2]!], [], 'test', { origin: 'synthesized' }],
    ['12', 'A question nobody can answer', [drugs[3]!], [], 'test', {}],
  ]);
});
afterAll(async () => testDb.drop());

describe('an audit campaign over an existing query set', () => {
  let campaignId: number;
  let first: { id: number };
  let second: { id: number };

  it('refuses a set with a non-integer answer id or an answer the knowledge base lacks, naming the query and its line, and creates nothing', async () => {
    await addSet('bad-ids', 'IMPORTED', [
      ['1', 'fine', [drugs[0]!], [], null, {}],
      ['2', 'a text id', [drugs[0]!, `${drugs[1]}.0`], [], null, {}],
      ['3', 'an unknown answer', ['999999999'], [], null, {}],
    ]);
    const before = await campaignRows();
    const bad = await createThroughRoute(users.curator, 'bad-ids', { name: 'audit-bad', annotators: ['annotator@example.org'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(`The set "bad-ids" cannot be audited: 2 problems; line 2, query 2: answer "${drugs[1]}.0" is not an integer id, as every entity id of this knowledge base is`);
    expect(bad.body.details).toEqual([
      { file: 'bad-ids', line: 2, field: 'query 2', reason: `answer "${drugs[1]}.0" is not an integer id, as every entity id of this knowledge base is` },
      { file: 'bad-ids', line: 3, field: 'query 3', reason: 'answer "999999999" is not an entity of this knowledge base' },
    ]);
    expect(await campaignRows()).toEqual(before);
    const asAnnotator = await createThroughRoute(users.annotator, 'prime-audit', { name: 'audit-x', annotators: ['annotator@example.org'] });
    expect(asAnnotator.status).toBe(403);
  });

  it('is created through the route with one item per query and its current answers', async () => {
    const set = await getQuerySet(pool(), kbId, 'prime-audit');
    await createRelease(pool(), set, KB, { name: 'before the audit', userId: null });
    const res = await createThroughRoute(users.curator, 'prime-audit', { name: 'audit-prime', annotators: ['annotator@example.org', 'second@example.org'], annotatorsPerSeed: 2 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(Number), items: 3 });
    campaignId = res.body.id as number;
    const { rows } = await pool().query(`SELECT unit, external_id, answer_ids, seed_ids, split, origin FROM audit_item WHERE campaign_id = $1 ORDER BY unit DESC`, [campaignId]);
    expect(rows).toEqual([
      { unit: -1, external_id: '10', answer_ids: [drugs[0], drugs[1]], seed_ids: [gene], split: 'train', origin: 'imported' },
      { unit: -2, external_id: '11', answer_ids: [drugs[2]], seed_ids: [], split: 'test', origin: 'synthesized' },
      { unit: -3, external_id: '12', answer_ids: [drugs[3]], seed_ids: [], split: 'test', origin: 'imported' },
    ]);
    const { rows: [c] } = await pool().query('SELECT kind, query_set_id, audit_release FROM campaign WHERE id = $1', [campaignId]);
    expect(c).toEqual({ kind: 'audit', query_set_id: set.id, audit_release: null });
  });

  it('shows the annotator the query, its answers and seeds; judging, adding and flagging are saved, and submitting needs every answer judged', async () => {
    first = (await claimNext(pool(), campaignId, users.annotator.id))!;
    const ws = await auditWorkspace(pool(), first.id, users.annotator.id);
    expect(ws.item).toMatchObject({ number: 1, externalId: '10', text: 'Which drug targets this gene?', split: 'train', origin: 'imported' });
    expect(ws.item.answers.map((a) => [a.id, a.entityId])).toEqual([[drugs[0], idOf.get(drugs[0]!)], [drugs[1], idOf.get(drugs[1]!)]]);
    expect(ws.item.seeds.map((s) => s.id)).toEqual([gene]);
    expect(ws.flags).toEqual({ flags: [], note: '', version: 0 });

    const edge = { kind: 'edge' as const, source: idOf.get(drugs[0]!)!, relation: 'target', target: idOf.get(gene)! };
    await judge(pool(), first.id, users.annotator.id, { entityId: idOf.get(drugs[0]!)!, label: 'relevant', evidence: [edge], version: 0 });
    const early = await failure(submitAudit(pool(), first.id, users.annotator.id));
    expect(early.status).toBe(400);
    expect(early.message).toMatch(new RegExp(`^answers: mark every current answer correct or wrong; not judged: .* \\(${drugs[1]}\\)$`));
    const span = { kind: 'span' as const, entity: idOf.get(drugs[1]!)!, field: 'details', start: 0, end: 4, quote: 'says' };
    await judge(pool(), first.id, users.annotator.id, { entityId: idOf.get(drugs[1]!)!, label: 'not_relevant', evidence: [span], version: 0 });
    await judge(pool(), first.id, users.annotator.id, { entityId: idOf.get(drugs[2]!)!, label: 'relevant', version: 0 });
    await saveAuditFlags(pool(), first.id, users.annotator.id, { flags: ['ambiguous'], note: '', version: 0 });
    const noNote = await failure(submitAudit(pool(), first.id, users.annotator.id));
    expect(noNote.message).toBe('note: say why the query is flagged');
    const stale = await failure(saveAuditFlags(pool(), first.id, users.annotator.id, { flags: ['ambiguous'], note: 'x', version: 0 }));
    expect(stale.status).toBe(409);
    await saveAuditFlags(pool(), first.id, users.annotator.id, { flags: ['ambiguous'], note: '"this gene" could be any of its aliases', version: 1 });
    expect(await submitAudit(pool(), first.id, users.annotator.id)).toEqual({ assignmentId: first.id, correct: 1, wrong: 1, unsure: 0, added: 1, flags: ['ambiguous'] });
    const after = await auditWorkspace(pool(), first.id, users.annotator.id);
    expect(after.assignment).toMatchObject({ status: 'SUBMITTED', editable: false });
    expect(after.judgments.find((j) => j.entityId === idOf.get(drugs[1]!))?.evidence).toEqual([span]);
  });

  it('puts both annotators side by side for review; a reviewer sends work back and it comes again', async () => {
    second = (await claimNext(pool(), campaignId, users.second.id))!;
    expect((await auditWorkspace(pool(), second.id, users.second.id)).item.number).toBe(1);
    await judge(pool(), second.id, users.second.id, { entityId: idOf.get(drugs[0]!)!, label: 'relevant', version: 0 });
    await judge(pool(), second.id, users.second.id, { entityId: idOf.get(drugs[1]!)!, label: 'relevant', version: 0 });
    await submitAudit(pool(), second.id, users.second.id);
    await returnAssignment(pool(), second.id, users.reviewer.id, 'Check the second drug’s targets again');
    await judge(pool(), second.id, users.second.id, { entityId: idOf.get(drugs[1]!)!, label: 'not_relevant', version: 1 });
    await submitAudit(pool(), second.id, users.second.id);

    expect(await auditReviewQueue(pool(), campaignId)).toEqual([{ number: 1, externalId: '10', text: 'Which drug targets this gene?', submitted: 2, approved: 0 }]);
    const review = await auditItemReview(pool(), campaignId, 1);
    expect(review.work.map((w) => [w.annotatorId, w.flags])).toEqual([[users.annotator.id, ['ambiguous']], [users.second.id, []]]);
    expect(review.answers.map((a) => [a.id, a.verdicts.map((v) => v.label)])).toEqual([[drugs[0], ['relevant', 'relevant']], [drugs[1], ['not_relevant', 'not_relevant']]]);
    expect(review.added.map((a) => [a.externalId, a.verdicts.map((v) => v.annotatorId)])).toEqual([[drugs[2], [users.annotator.id]]]);
    expect(review.live).toEqual({ version: 1, answers: [drugs[0], drugs[1]] });
  });

  it('refuses an incomplete approval or one by the author, writing nothing', async () => {
    const own = await failure(approveAudit(pool(), first.id, users.annotator.id, { decisions: [], query: { action: 'keep', flags: [], note: '' } }));
    expect(own.status).toBe(403);
    const missing = await failure(approveAudit(pool(), first.id, users.reviewer.id, {
      decisions: [{ entityId: idOf.get(drugs[0]!)!, accept: true }, { entityId: idOf.get(drugs[1]!)!, accept: false }],
      query: { action: 'keep', flags: [], note: '' },
    }));
    expect(missing.message).toBe(`decisions: decide on every current and added answer; missing ${idOf.get(drugs[2]!)}`);
    const noReason = await failure(approveAudit(pool(), first.id, users.reviewer.id, {
      decisions: [{ entityId: idOf.get(drugs[0]!)!, accept: true }, { entityId: idOf.get(drugs[1]!)!, accept: false }, { entityId: idOf.get(drugs[2]!)!, accept: true }],
      query: { action: 'flag', flags: ['ambiguous'], note: 'aliases' },
    }));
    expect(noReason.message).toBe(`decisions: give a reason for removing or leaving out ${idOf.get(drugs[1]!)}`);
    const set = await getQuerySet(pool(), kbId, 'prime-audit');
    expect((await getQuery(pool(), kbId, set.id, '10')).version).toBe(1);
    const { rows } = await pool().query(`SELECT status FROM assignment WHERE campaign_id = $1 ORDER BY id`, [campaignId]);
    expect(rows).toEqual([{ status: 'SUBMITTED' }, { status: 'SUBMITTED' }]);
  });

  it('approves into an edit of the set whose revision names the audit, with every removed and added answer and the flag', async () => {
    const outcome = await approveAudit(pool(), first.id, users.reviewer.id, {
      decisions: [
        { entityId: idOf.get(drugs[0]!)!, accept: true },
        { entityId: idOf.get(drugs[1]!)!, accept: false, reason: 'does not target the gene' },
        { entityId: idOf.get(drugs[2]!)!, accept: true },
      ],
      query: { action: 'flag', flags: ['ambiguous'], note: 'aliases' },
    });
    expect(outcome).toMatchObject({ action: 'flag', error: true, version: 2, removedAnswers: [{ id: drugs[1], reason: 'does not target the gene' }], addedAnswers: [{ id: drugs[2], chosenBy: ['annotator@example.org'] }] });
    const set = await getQuerySet(pool(), kbId, 'prime-audit');
    const q = await getQuery(pool(), kbId, set.id, '10');
    expect(q.answers.map((a) => a.id)).toEqual([drugs[0], drugs[2]]);
    expect(q.revisions[0]).toMatchObject({
      version: 2, changedBy: 'reviewer@example.org',
      reason: `audit campaign audit-prime, item 1: removed answer ${drugs[1]} (does not target the gene); added answer ${drugs[2]}; flagged ambiguous (aliases)`,
    });
    expect(q.metadata.audits).toEqual([expect.objectContaining({ campaign: 'audit-prime', item: 1, flags: ['ambiguous'], note: 'aliases' })]);
    const { rows } = await pool().query(`SELECT status, review_note FROM assignment WHERE campaign_id = $1 ORDER BY id`, [campaignId]);
    expect(rows).toEqual([{ status: 'APPROVED', review_note: null }, { status: 'APPROVED', review_note: 'adjudicated with item 1' }]);
    expect(await auditReviewQueue(pool(), campaignId)).toEqual([]);
  });

  it('keeps a right query unchanged and removes a wrong one; the next release diff shows what the audit changed', async () => {
    const set = await getQuerySet(pool(), kbId, 'prime-audit');
    for (const [number, decide] of [[2, true], [3, false]] as const) {
      const a = (await claimNext(pool(), campaignId, users.annotator.id))!;
      const ws = await auditWorkspace(pool(), a.id, users.annotator.id);
      expect(ws.item.number).toBe(number);
      await judge(pool(), a.id, users.annotator.id, { entityId: ws.item.answers[0]!.entityId!, label: decide ? 'relevant' : 'unsure', version: 0 });
      if (!decide) await saveAuditFlags(pool(), a.id, users.annotator.id, { flags: ['unanswerable'], note: 'the knowledge base says nothing of it', version: 0 });
      await submitAudit(pool(), a.id, users.annotator.id);
      const outcome = await approveAudit(pool(), a.id, users.reviewer.id, {
        decisions: [{ entityId: ws.item.answers[0]!.entityId!, accept: true }],
        query: decide ? { action: 'keep', flags: [], note: '' } : { action: 'remove', flags: [], note: 'unanswerable from the knowledge base' },
      });
      expect(outcome).toMatchObject({ action: decide ? 'keep' : 'remove', error: !decide, version: null });
    }
    expect((await getQuery(pool(), kbId, set.id, '11')).version).toBe(1);
    await expect(getQuery(pool(), kbId, set.id, '12')).rejects.toThrow(/No query 12/);
    await createRelease(pool(), set, KB, { name: 'after the audit', userId: null });
    const diff = await diffReleases(pool(), set.id, 1, 2, { limit: 10, offset: 0 });
    expect(diff).toMatchObject({ added: 0, removed: 1, changed: 1, answersChanged: 1, unchanged: 1 });
    expect(diff.items).toEqual([
      { id: '10', change: 'changed', fields: ['answers'], text: 'Which drug targets this gene?', answersAdded: [drugs[2]], answersRemoved: [drugs[1]] },
      { id: '12', change: 'removed', fields: [], text: 'A question nobody can answer', answersAdded: [], answersRemoved: [drugs[3]] },
    ]);
  });

  it('reports the error rate per split and per origin with Wilson intervals, and agreement as any campaign', async () => {
    const errors = await auditErrors(pool(), campaignId);
    expect(errors).toMatchObject({ items: 3, audited: 3, changes: { answersRemoved: 1, answersAdded: 1, flagged: 1, removed: 1 } });
    expect(errors.total).toMatchObject({ group: 'all', audited: 3, errors: 2 });
    expect(errors.total.low).toBeCloseTo(0.2077, 4);
    expect(errors.total.high).toBeCloseTo(0.9385, 4);
    expect(errors.bySplit.map((r) => [r.group, r.audited, r.errors])).toEqual([['test', 2, 1], ['train', 1, 1]]);
    expect(errors.byOrigin.map((r) => [r.group, r.audited, r.errors])).toEqual([['imported', 2, 2], ['synthesized', 1, 0]]);
    expect(errors.byOrigin[1]).toMatchObject({ rate: 0, low: 0 });
    const stats = await campaignStats(pool(), campaignId);
    expect(stats.totals).toMatchObject({ assigned: 4, approved: 4 });
    expect(stats.agreement).toMatchObject({ seedsCompared: 1, pairs: 1 });
  });

  it('carries a query flagged as leaking its answer from the annotator\'s screen to the set\'s revision and the error rate', async () => {
    const res = await createThroughRoute(users.curator, 'prime-audit', { name: 'audit-leaks', annotators: ['annotator@example.org'] });
    expect(res.status).toBe(201);
    const leaks = res.body.id as number;
    const a = (await claimNext(pool(), leaks, users.annotator.id))!;
    const ws = await auditWorkspace(pool(), a.id, users.annotator.id);
    expect(ws.item.externalId).toBe('10');
    const saved = await auditThroughRoute(users.annotator, a.id, 'PUT', { flags: ['leaks_answer'], note: 'the text names the drug it asks for', version: 0 });
    expect(saved).toEqual({ status: 200, body: { version: 1 } });
    const unknown = await auditThroughRoute(users.annotator, a.id, 'PUT', { flags: ['leaks'], note: 'x', version: 1 });
    expect(unknown.status).toBe(400);
    expect((await auditThroughRoute(users.annotator, a.id, 'GET')).body.flags).toEqual({ flags: ['leaks_answer'], note: 'the text names the drug it asks for', version: 1 });
    for (const answer of ws.item.answers) await judge(pool(), a.id, users.annotator.id, { entityId: answer.entityId!, label: 'relevant', version: 0 });
    expect(await submitAudit(pool(), a.id, users.annotator.id)).toMatchObject({ correct: ws.item.answers.length, wrong: 0, added: 0, flags: ['leaks_answer'] });

    const review = await auditItemReview(pool(), leaks, 1);
    expect(review.work.map((w) => [w.annotatorId, w.flags, w.note])).toEqual([[users.annotator.id, ['leaks_answer'], 'the text names the drug it asks for']]);
    const outcome = await approveAudit(pool(), a.id, users.reviewer.id, {
      decisions: ws.item.answers.map((answer) => ({ entityId: answer.entityId!, accept: true })),
      query: { action: 'flag', flags: ['leaks_answer'], note: 'names the drug' },
    });
    expect(outcome).toMatchObject({ action: 'flag', error: true, flags: ['leaks_answer'], removedAnswers: [], addedAnswers: [] });
    const set = await getQuerySet(pool(), kbId, 'prime-audit');
    const q = await getQuery(pool(), kbId, set.id, '10');
    expect(q.revisions[0]!.reason).toBe('audit campaign audit-leaks, item 1: flagged leaks answer (names the drug)');
    expect(q.metadata.audits).toEqual([
      expect.objectContaining({ campaign: 'audit-prime', flags: ['ambiguous'] }),
      expect.objectContaining({ campaign: 'audit-leaks', item: 1, flags: ['leaks_answer'], note: 'names the drug' }),
    ]);
    const errors = await auditErrors(pool(), leaks);
    expect(errors).toMatchObject({ audited: 1, changes: { answersRemoved: 0, answersAdded: 0, flagged: 1, removed: 0 } });
    expect(errors.total).toMatchObject({ audited: 1, errors: 1 });
  });

  it('keeps an audit out of the steps that write new queries: no draft, plain submission or plain approval, nothing written', async () => {
    const res = await createThroughRoute(users.curator, 'prime-audit', { name: 'audit-plain-steps', annotators: ['annotator@example.org'] });
    const campaign = res.body.id as number;
    const a = (await claimNext(pool(), campaign, users.annotator.id))!;
    const ws = await auditWorkspace(pool(), a.id, users.annotator.id);
    for (const answer of ws.item.answers) await judge(pool(), a.id, users.annotator.id, { entityId: answer.entityId!, label: 'relevant', version: 0 });
    const draft = await failure(saveDraft(pool(), a.id, users.annotator.id, { text: 'A brand new query', version: 0 }));
    expect([draft.status, draft.message]).toEqual([400, 'This assignment is part of an audit campaign: it has no query text to write; judge its answers and flag the query instead']);
    const plainSubmit = await failure(submitAssignment(pool(), a.id, users.annotator.id, 0));
    expect([plainSubmit.status, plainSubmit.message]).toEqual([400, 'This assignment is part of an audit campaign: submit it as an audit (POST /api/assignments/:id/audit/submit)']);
    expect((await auditWorkspace(pool(), a.id, users.annotator.id)).assignment.status).toBe('ACTIVE');
    await submitAudit(pool(), a.id, users.annotator.id);

    // Approved as a new query, the audit would add one to the audited set and leave its item without an outcome.
    const set = await getQuerySet(pool(), kbId, 'prime-audit');
    const queries = async () => (await pool().query<{ id: string }>('SELECT external_id AS id FROM query WHERE set_id = $1 ORDER BY position', [set.id])).rows.map((r) => r.id);
    const before = await queries();
    const decisions = ws.item.answers.map((answer) => ({ entityId: answer.entityId!, accept: true }));
    const plainApproval = await failure(approveQuery(pool(), a.id, users.reviewer.id, { decisions, text: 'A brand new query' }));
    expect([plainApproval.status, plainApproval.message]).toEqual([400, 'This assignment is part of an audit campaign: approve it as an audit (POST /api/assignments/:id/audit/approve)']);
    expect(await queries()).toEqual(before);
    const { rows: [item] } = await pool().query('SELECT a.status, i.outcome FROM assignment a JOIN audit_item i ON i.campaign_id = a.campaign_id AND i.unit = a.entity_id WHERE a.id = $1', [a.id]);
    expect(item).toEqual({ status: 'SUBMITTED', outcome: null });
    // The audit's own approval still decides it.
    expect(await approveAudit(pool(), a.id, users.reviewer.id, { decisions, query: { action: 'keep', flags: [], note: '' } })).toMatchObject({ action: 'keep', error: false, version: null });
  });

  it('audits a release, refusing one whose queries have left the set', async () => {
    const set = await getQuerySet(pool(), kbId, 'prime-audit');
    const gone = await failure(createAuditCampaign(pool(), kbId, set, { name: 'audit-r1', release: 1, annotatorIds: [users.annotator.id], annotatorsPerSeed: 1, guidelines: 'g', leaseMinutes: 60, open: true }, users.curator.id));
    expect(gone.status).toBe(400);
    expect(gone.message).toBe('Release 1 of "prime-audit" cannot be audited: 1 problem; line 3, query 12: no longer in the set "prime-audit", so a fix has nowhere to go');
    const created = await createAuditCampaign(pool(), kbId, set, { name: 'audit-r2', release: 2, annotatorIds: [users.annotator.id], annotatorsPerSeed: 1, guidelines: 'g', leaseMinutes: 60, open: true }, users.curator.id);
    expect(created.items).toBe(2);
    const { rows } = await pool().query(`SELECT external_id, answer_ids FROM audit_item WHERE campaign_id = $1 ORDER BY unit DESC`, [created.id]);
    expect(rows).toEqual([{ external_id: '10', answer_ids: [drugs[0], drugs[2]] }, { external_id: '11', answer_ids: [drugs[2]] }]);
    const missing = await failure(createAuditCampaign(pool(), kbId, set, { name: 'audit-r9', release: 9, annotatorIds: [users.annotator.id], annotatorsPerSeed: 1, guidelines: 'g', leaseMinutes: 60, open: true }, users.curator.id));
    expect(missing.status).toBe(404);
  });
});
