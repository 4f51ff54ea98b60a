import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimNext } from '../../lib/authoring/assignments';
import { createCampaign } from '../../lib/authoring/campaigns';
import { judge, saveDraft } from '../../lib/authoring/drafts';
import { approveQuery, submittedForSeed } from '../../lib/authoring/review';
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
      await saveDraft(pool(), a.id, user, { text, version: 0 });
      for (const e of relevant) await judge(pool(), a.id, user, { entityId: idOf.get(e)!, label: 'relevant', evidence: [{ kind: 'edge', source: a.entityId, relation: 'interacts with', target: idOf.get(e)! }], version: 0 });
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
    const { rows: [q] } = await pool().query<{ metadata: { answerProvenance: unknown[]; author: string } }>('SELECT metadata FROM query WHERE set_id = $1', [set.id]);
    expect(q!.metadata.author).toBe('ann');
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
});
