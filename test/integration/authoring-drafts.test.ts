import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimNext } from '../../lib/authoring/assignments';
import { createCampaign } from '../../lib/authoring/campaigns';
import { judge, MAX_QUERY_LENGTH, saveDraft } from '../../lib/authoring/drafts';
import { submitAssignment } from '../../lib/authoring/submit';
import { createUser } from '../../lib/auth/users';
import { Role } from '../../lib/auth/roles';
import { AppError } from '../../lib/errors';
import { db, openAppDatabase, pool } from '../support/app-database';
import { ibdIds, importIbd } from '../support/primekg-ibd';
import type { TestDatabase } from '../support/test-database';

let testDb: TestDatabase;
let kbId: number;
let annotator: number;
let assignment: { id: number; entityId: number };
let seedName: string;

beforeAll(async () => {
  testDb = await openAppDatabase();
  kbId = await importIbd(pool());
  annotator = (await createUser(db(), { email: 'writer@example.org', password: 'a long password', role: Role.ANNOTATOR })).id;
  const { idOf } = await ibdIds(pool(), kbId);
  const { id } = await createCampaign(pool(), kbId, { name: 'drafts', guidelines: 'g', annotatorsPerSeed: 1, leaseMinutes: 60, leakPolicy: 'warn', querySet: 'drafts-queries', annotatorIds: [annotator], open: true },
    { mode: 'list', text: '144\n', file: 'seeds.txt' }, null);
  assignment = (await claimNext(pool(), id, annotator))!;
  expect(assignment.entityId).toBe(idOf.get('144'));
  seedName = (await pool().query<{ name: string }>('SELECT name FROM entity WHERE kb_id = $1 AND id = $2', [kbId, assignment.entityId])).rows[0]!.name;
});
afterAll(async () => testDb.drop());

const status = async (p: Promise<unknown>) => ((await p.catch((e: unknown) => e)) as AppError).status;

describe('drafts', () => {
  it('saves with versions, reports the leak of the seed name, refuses stale and over-long saves', async () => {
    const first = await saveDraft(pool(), assignment.id, annotator, { text: 'Which genes interact with it?', version: 0 });
    expect(first.version).toBe(1);
    expect(first.leaks).toEqual([]);
    const leaky = await saveDraft(pool(), assignment.id, annotator, { text: `What does ${seedName.toLowerCase()} bind?`, version: 1, textSpans: [{ field: 'node_attr', start: 0, end: 5, quote: seedName }] });
    expect(leaky.version).toBe(2);
    expect(leaky.leaks.map((l) => l.name)).toEqual([seedName]);
    expect(await status(saveDraft(pool(), assignment.id, annotator, { text: 'lost update', version: 1 }))).toBe(409);
    expect(await status(saveDraft(pool(), assignment.id, annotator, { text: 'x'.repeat(MAX_QUERY_LENGTH + 1), version: 2 }))).toBe(400);
    const { rows } = await pool().query<{ text: string; version: number }>('SELECT text, version FROM query_draft WHERE assignment_id = $1', [assignment.id]);
    expect(rows[0]).toEqual({ text: `What does ${seedName.toLowerCase()} bind?`, version: 2 });
  });

  it('lets exactly one of many concurrent saves of the same version through', async () => {
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => saveDraft(pool(), assignment.id, annotator, { text: `attempt ${i}`, version: 2 })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').every((r) => ((r as PromiseRejectedResult).reason as AppError).status === 409)).toBe(true);
    const { rows } = await pool().query<{ version: number }>('SELECT version FROM query_draft WHERE assignment_id = $1', [assignment.id]);
    expect(rows[0]!.version).toBe(3);
  });
});

describe('judgments', () => {
  it('records and re-labels with versions; refuses entities outside the knowledge base and stale versions', async () => {
    const { idOf } = await ibdIds(pool(), kbId);
    const candidate = idOf.get('179')!;
    expect(await judge(pool(), assignment.id, annotator, { entityId: candidate, label: 'relevant', evidence: [{ kind: 'edge', source: assignment.entityId, relation: 'associated with', target: idOf.get('37784')! }], version: 0 })).toEqual({ version: 1 });
    expect(await judge(pool(), assignment.id, annotator, { entityId: candidate, label: 'unsure', version: 1 })).toEqual({ version: 2 });
    expect(await status(judge(pool(), assignment.id, annotator, { entityId: candidate, label: 'not_relevant', version: 1 }))).toBe(409);
    const outside = await judge(pool(), assignment.id, annotator, { entityId: 999_999_999, label: 'relevant', version: 0 }).catch((e: AppError) => e);
    expect((outside as AppError).status).toBe(400);
    expect((outside as AppError).message).toMatch(/999999999 is not an entity of this campaign's knowledge base/);
    const { rows } = await pool().query<{ label: string }>('SELECT label FROM judgment WHERE assignment_id = $1', [assignment.id]);
    expect(rows).toEqual([{ label: 'unsure' }]);
  });

  it('refuses evidence outside the campaign\'s knowledge base, naming the item, and judged entities of another one', async () => {
    const { idOf } = await ibdIds(pool(), kbId);
    const candidate = idOf.get('192')!;
    const otherKb = await importIbd(pool(), 'ibd-other');
    const other = await ibdIds(pool(), otherKb);
    const [foreignSource, foreignTarget] = [other.idOf.get('144')!, other.idOf.get('179')!];
    expect((await pool().query('SELECT 1 FROM entity WHERE kb_id = $1 AND id = ANY($2::int[])', [kbId, [foreignSource, foreignTarget]])).rows).toEqual([]);
    const edge = { kind: 'edge' as const, source: assignment.entityId, relation: 'associated with', target: idOf.get('37784')! };
    const span = { kind: 'span' as const, entity: candidate, field: 'node_name', start: 0, end: 3, quote: 'abc' };
    const refused = async (evidence: Parameters<typeof judge>[3]['evidence'], entityId = candidate) => {
      const err = (await judge(pool(), assignment.id, annotator, { entityId, label: 'relevant', evidence, version: 0 }).catch((e: unknown) => e)) as AppError;
      expect(err).toBeInstanceOf(AppError);
      expect(err.status).toBe(400);
      return err.message;
    };
    expect(await refused([edge, { ...edge, source: foreignSource, target: foreignTarget }]))
      .toBe(`evidence.1: ${foreignSource} -[associated with]-> ${foreignTarget} is not an edge of this campaign's knowledge base`);
    expect(await refused([edge, { ...edge, relation: 'no such relation' }])).toMatch(/^evidence\.1: .* is not an edge/);
    expect(await refused([{ ...edge, target: edge.source, source: edge.target, relation: 'indication' }])).toMatch(/^evidence\.0: .* is not an edge/);
    expect(await refused([span, { ...span, entity: foreignSource }])).toBe(`evidence.1.entity: ${foreignSource} is not an entity of this campaign's knowledge base`);
    expect(await refused([span, { ...span, entity: 2_000_000_000 }])).toBe("evidence.1.entity: 2000000000 is not an entity of this campaign's knowledge base");
    expect(await refused([], foreignSource)).toBe(`entityId: ${foreignSource} is not an entity of this campaign's knowledge base`);
    expect((await pool().query('SELECT 1 FROM judgment WHERE assignment_id = $1 AND entity_id = $2', [assignment.id, candidate])).rows).toEqual([]);
    expect(await judge(pool(), assignment.id, annotator, { entityId: candidate, label: 'relevant', evidence: [edge, span], version: 0 })).toEqual({ version: 1 });
  });

  it('refuses work on an expired assignment, keeping what was saved', async () => {
    await pool().query(`UPDATE assignment SET lease_expires_at = now() - interval '1 second' WHERE id = $1`, [assignment.id]);
    const err = (await saveDraft(pool(), assignment.id, annotator, { text: 'late', version: 3 }).catch((e: unknown) => e)) as AppError;
    expect(err.status).toBe(409);
    expect(err.message).toMatch(/expired/);
    const other = (await createUser(db(), { email: 'other@example.org', password: 'a long password', role: Role.ANNOTATOR })).id;
    expect(await status(saveDraft(pool(), assignment.id, other, { text: 'not mine', version: 3 }))).toBe(404);
    const { rows } = await pool().query<{ text: string }>('SELECT text FROM query_draft WHERE assignment_id = $1', [assignment.id]);
    expect(rows[0]!.text).not.toBe('late');
  });
});

describe('submitting', () => {
  it('refuses an empty query, a stale draft and, under the block policy, a leak; then submits the seed and the relevant entities', async () => {
    const writer = (await createUser(db(), { email: 'submitter@example.org', password: 'a long password', role: Role.ANNOTATOR })).id;
    const { id } = await createCampaign(pool(), kbId, { name: 'submit', guidelines: 'g', annotatorsPerSeed: 1, leaseMinutes: 60, leakPolicy: 'block', querySet: 'submit-queries', annotatorIds: [writer], open: true },
      { mode: 'list', text: '144\n', file: 'seeds.txt' }, null);
    const a = (await claimNext(pool(), id, writer))!;
    expect(await status(submitAssignment(pool(), a.id, writer, 0))).toBe(400);
    await saveDraft(pool(), a.id, writer, { text: `What binds ${seedName}?`, version: 0 });
    const leak = (await submitAssignment(pool(), a.id, writer, 1).catch((e: unknown) => e)) as AppError;
    expect(leak.message).toMatch(/names the seed/);
    await saveDraft(pool(), a.id, writer, { text: 'Which transcription factor mediates TGF-beta signalling?', version: 1 });
    expect(await status(submitAssignment(pool(), a.id, writer, 1))).toBe(400);
    const { idOf } = await ibdIds(pool(), kbId);
    await judge(pool(), a.id, writer, { entityId: idOf.get('179')!, label: 'relevant', version: 0 });
    await judge(pool(), a.id, writer, { entityId: idOf.get('192')!, label: 'unsure', version: 0 });
    const submitted = await submitAssignment(pool(), a.id, writer, 2);
    expect(submitted.answers).toEqual([a.entityId, idOf.get('179')]);
    expect(submitted.unsure).toBe(1);
    expect(await status(saveDraft(pool(), a.id, writer, { text: 'after the fact', version: 2 }))).toBe(409);
  });
});
