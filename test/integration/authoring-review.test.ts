import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimNext } from '../../lib/authoring/assignments';
import { createCampaign } from '../../lib/authoring/campaigns';
import { judge, saveDraft } from '../../lib/authoring/drafts';
import { approveQuery, returnAssignment, reviewQueue, seedReview, submittedForSeed } from '../../lib/authoring/review';
import { campaignStats } from '../../lib/authoring/stats';
import { workspace } from '../../lib/authoring/workspace';
import { submitAssignment } from '../../lib/authoring/submit';
import { createUser } from '../../lib/auth/users';
import { Role } from '../../lib/auth/roles';
import { AppError } from '../../lib/errors';
import { exportFiles } from '../../lib/queries/export';
import { getQuerySet } from '../../lib/queries/sets';
import { db, openAppDatabase, pool } from '../support/app-database';
import { ibdIds, importIbd } from '../support/primekg-ibd';
import type { TestDatabase } from '../support/test-database';

let testDb: TestDatabase;
let kbId: number;

beforeAll(async () => {
  testDb = await openAppDatabase();
  kbId = await importIbd(pool());
});
afterAll(async () => testDb.drop());

const status = async (p: Promise<unknown>) => ((await p.catch((e: unknown) => e)) as AppError).status;

describe('review and approval', () => {
  it('shows both annotators\' answers, needs a decision on each, refuses self-approval, and approves into the query set', async () => {
    const [ann, bea, rev] = await Promise.all(['ann', 'bea', 'rev'].map((n, i) => createUser(db(), { email: `${n}@example.org`, name: n, password: 'a long password', role: i < 2 ? Role.ANNOTATOR : Role.CURATOR })));
    const { idOf } = await ibdIds(pool(), kbId);
    const { id: campaignId } = await createCampaign(pool(), kbId, { name: 'review', guidelines: 'g', annotatorsPerSeed: 2, leaseMinutes: 60, leakPolicy: 'warn', querySet: 'reviewed', annotatorIds: [ann!.id, bea!.id], open: true },
      { mode: 'list', text: '144\n', file: 'seeds.txt' }, null);
    const work = async (user: number, text: string, relevant: string[]) => {
      const a = (await claimNext(pool(), campaignId, user))!;
      await saveDraft(pool(), a.id, user, { text, version: 0, requirement: { paths: [{ start: { entity: a.entityId }, steps: [{ direction: 'out', relation: 'interacts with', targetType: 'gene/protein' }] }] }, textSpans: [{ field: 'name', start: 0, end: 5, quote: 'SMAD3' }] });
      for (const e of relevant) await judge(pool(), a.id, user, { entityId: idOf.get(e)!, label: 'relevant', evidence: [{ kind: 'span', entity: idOf.get(e)!, field: 'node_name', start: 0, end: 3, quote: 'IL1' }], version: 0 });
      await submitAssignment(pool(), a.id, user, 1);
      return a;
    };
    const first = await work(ann!.id, 'Which transcription factor mediates TGF-beta signalling?', ['179', '192']);
    await work(bea!.id, 'Which protein carries TGF-beta signals into the nucleus?', ['192']);

    const side = await submittedForSeed(pool(), campaignId, first.entityId);
    expect(side.map((w) => [w.annotator, w.relevant.map((r) => r.entityId)])).toEqual([['ann', [idOf.get('179'), idOf.get('192')].sort((x, y) => x! - y!)], ['bea', [idOf.get('192')]]]);

    expect(await status(approveQuery(pool(), first.id, ann!.id, { decisions: [] }))).toBe(403);
    expect(await status(approveQuery(pool(), first.id, rev!.id, { decisions: [{ entityId: idOf.get('192')!, accept: true }] }))).toBe(400);
    expect(await status(approveQuery(pool(), first.id, rev!.id, { decisions: [{ entityId: idOf.get('192')!, accept: true }, { entityId: idOf.get('179')!, accept: false }] }))).toBe(400);
    const approved = await approveQuery(pool(), first.id, rev!.id, { decisions: [{ entityId: idOf.get('192')!, accept: true }, { entityId: idOf.get('179')!, accept: false, reason: 'no evidence it mediates signalling' }] });
    expect(approved).toEqual({ queryId: '0', answers: ['144', '192'] });
    expect(await status(approveQuery(pool(), first.id, rev!.id, { decisions: [] }))).toBe(409);

    const set = await getQuerySet(pool(), kbId, 'reviewed');
    const { rows: [q] } = await pool().query<{ metadata: { answerProvenance: unknown[]; author: string; relationalRequirement: unknown; textualRequirements: unknown } }>('SELECT metadata FROM query WHERE set_id = $1', [set.id]);
    expect(q!.metadata.author).toBe('ann');
    // The requirements recorded in the workspace are stored with the query, so the JSONL export has them.
    expect(q!.metadata.relationalRequirement).toEqual({ paths: [{ start: { externalId: '144' }, steps: [{ direction: 'out', relation: 'interacts with', targetType: 'gene/protein' }] }] });
    expect(q!.metadata.textualRequirements).toEqual([{ field: 'name', start: 0, end: 5, quote: 'SMAD3' }]);
    const [jsonl] = await exportFiles(pool(), { setId: set.id }, 'jsonl');
    let exported = '';
    for await (const chunk of jsonl!.content()) exported += chunk;
    expect(JSON.parse(exported).metadata).toMatchObject({ relationalRequirement: q!.metadata.relationalRequirement, textualRequirements: q!.metadata.textualRequirements });
    expect(q!.metadata.answerProvenance).toEqual([
      { entity: '144', chosenBy: ['seed'], decision: 'accepted' },
      { entity: '192', chosenBy: ['ann', 'bea'], decision: 'accepted' },
      { entity: '179', chosenBy: ['ann'], decision: 'rejected', reason: 'no evidence it mediates signalling' },
    ]);
    // In the STaRK export: the human-generated layout, with the seed as answer_ids_source.
    const [csv] = await exportFiles(pool(), { setId: set.id }, 'stark');
    let text = '';
    for await (const chunk of csv!.content()) text += chunk;
    expect(csv!.path).toBe('stark_qa_human_generated_eval.csv');
    expect(text).toBe('id,query,answer_ids,answer_ids_source\n0,Which transcription factor mediates TGF-beta signalling?,"[144, 192]",[144]\n');
  });

  it('sends work back to its author, who edits and resubmits it; the queue, union, intersection and agreement follow', async () => {
    const [cy, dee, eve, rev] = await Promise.all(['cy', 'dee', 'eve', 'rev2'].map((n, i) => createUser(db(), { email: `${n}@example.org`, name: n, password: 'a long password', role: i < 3 ? Role.ANNOTATOR : Role.CURATOR })));
    const { idOf } = await ibdIds(pool(), kbId);
    const { id: campaignId } = await createCampaign(pool(), kbId, { name: 'returns', guidelines: 'g', annotatorsPerSeed: 3, leaseMinutes: 60, leakPolicy: 'warn', querySet: 'returned work', annotatorIds: [cy!.id, dee!.id, eve!.id], open: true },
      { mode: 'list', text: '144\n', file: 'seeds.txt' }, null);
    const labelsOf = { cy: { '179': 'relevant', '192': 'relevant', '37784': 'not_relevant' }, dee: { '179': 'relevant', '37784': 'unsure' }, eve: { '179': 'relevant', '192': 'not_relevant' } } as const;
    const users = { cy: cy!, dee: dee!, eve: eve! };
    const work: Record<string, number> = {};
    for (const [name, labels] of Object.entries(labelsOf)) {
      const user = users[name as keyof typeof users];
      const a = (await claimNext(pool(), campaignId, user.id))!;
      work[name] = a.id;
      await saveDraft(pool(), a.id, user.id, { text: `query by ${name}`, version: 0 });
      for (const [e, label] of Object.entries(labels)) await judge(pool(), a.id, user.id, { entityId: idOf.get(e)!, label: label as 'relevant', version: 0 });
      await submitAssignment(pool(), a.id, user.id, 1);
    }
    const seed = idOf.get('144')!;
    expect(await reviewQueue(pool(), campaignId)).toEqual([expect.objectContaining({ entityId: seed, externalId: '144', submitted: 3, approved: 0 })]);

    const review = await seedReview(pool(), campaignId, seed);
    expect(review.querySet).toBe('returned work');
    expect(review.work.map((w) => [w.annotator, w.unsure])).toEqual([['cy', 0], ['dee', 1], ['eve', 0]]);
    const union = new Map(review.entities.map((e) => [e.externalId, e]));
    expect([...union.keys()].sort()).toEqual(['179', '192']);
    expect(union.get('179')).toMatchObject({ chosenBy: [cy!.id, dee!.id, eve!.id], inAll: true });
    expect(union.get('192')).toMatchObject({ chosenBy: [cy!.id], inAll: false });

    // Agreement, computed by hand: relevant sets {179,192}, {179}, {179} -> Jaccard 1/2, 1/2, 1 -> mean 2/3.
    // Units (entities two annotators judged): 179 = (r, r, r), 192 = (r, n), 37784 = (n, u) -> nominal alpha.
    const stats = await campaignStats(pool(), campaignId);
    expect(stats.agreement).toMatchObject({ seedsCompared: 1, pairs: 3, units: 3 });
    expect(stats.agreement.meanJaccard).toBeCloseTo(2 / 3, 6);
    expect(stats.agreement.alpha).toBeCloseTo(nominalAlphaByHand(), 6);
    expect(stats.totals).toMatchObject({ assigned: 3, drafted: 3, submitted: 3, approved: 0, returned: 0, skipped: 0 });
    expect(stats.annotators.map((a) => [a.annotator, a.meanJaccard])).toEqual([['cy', 0.5], ['dee', 0.75], ['eve', 0.75]]);

    expect(await status(returnAssignment(pool(), work.dee!, dee!.id, 'mine'))).toBe(403);
    expect(await status(returnAssignment(pool(), work.dee!, rev!.id, '  '))).toBe(400);
    await returnAssignment(pool(), work.dee!, rev!.id, 'Say which tissue you mean');
    const back = await workspace(pool(), work.dee!, dee!.id);
    expect(back.assignment).toMatchObject({ status: 'RETURNED', reviewNote: 'Say which tissue you mean', editable: true });
    expect(await status(returnAssignment(pool(), work.dee!, rev!.id, 'again'))).toBe(409);
    expect((await seedReview(pool(), campaignId, seed)).work.map((w) => w.annotator)).toEqual(['cy', 'eve']);
    expect((await campaignStats(pool(), campaignId)).totals).toMatchObject({ submitted: 3, returned: 1 });

    // The author edits the returned work and hands it in again.
    const saved = await saveDraft(pool(), work.dee!, dee!.id, { text: 'query by dee, in the colon', version: 1 });
    expect(saved.version).toBe(2);
    await submitAssignment(pool(), work.dee!, dee!.id, 2);
    expect((await seedReview(pool(), campaignId, seed)).work.map((w) => [w.annotator, w.text])).toEqual([['cy', 'query by cy'], ['dee', 'query by dee, in the colon'], ['eve', 'query by eve']]);

    // Approving one query adjudicates the seed: the others' work is approved with it, and the queue empties.
    await approveQuery(pool(), work.dee!, rev!.id, { decisions: [{ entityId: idOf.get('179')!, accept: true }, { entityId: idOf.get('192')!, accept: false, reason: 'not expressed there' }] });
    expect(await reviewQueue(pool(), campaignId)).toEqual([]);
    const { rows } = await pool().query<{ status: string; review_note: string | null }>('SELECT status, review_note FROM assignment WHERE campaign_id = $1 ORDER BY id', [campaignId]);
    expect(rows).toEqual([
      { status: 'APPROVED', review_note: 'adjudicated into query 0' },
      { status: 'APPROVED', review_note: 'Say which tissue you mean' },
      { status: 'APPROVED', review_note: 'adjudicated into query 0' },
    ]);
    expect((await campaignStats(pool(), campaignId)).totals).toMatchObject({ approved: 3, returned: 0 });
  });
});

/**
 * Krippendorff's nominal alpha for the units 179 = (r, r, r), 192 = (r, n), 37784 = (n, u), from its
 * definition: coincidences o_rr = 3 (6 ordered pairs / (3 - 1)), o_rn = o_nr = 1, o_nu = o_un = 1;
 * n_r = 4, n_n = 2, n_u = 1, n = 7; alpha = 1 - (n - 1) * D_o / D_e with D_o = 4, D_e = sum over c != k of n_c n_k.
 */
function nominalAlphaByHand(): number {
  const n = { r: 4, n: 2, u: 1 };
  const expected = 2 * (n.r * n.n + n.r * n.u + n.n * n.u);
  return 1 - ((7 - 1) * 4) / expected;
}
