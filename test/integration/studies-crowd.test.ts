import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors';
import { setStudyCrowd, setStudyStatus, studyCrowdSchema, studyDetail } from '../../lib/studies/admin';
import { createStudy, type StudyInput } from '../../lib/studies/create';
import { crowdConfigSchema, type CrowdConfigInput } from '../../lib/studies/crowd';
import { joinThroughLink } from '../../lib/studies/crowd-join';
import { participantItems, participantsCsv, participantsJsonl } from '../../lib/studies/export';
import { joinByStudyLink, participantByToken } from '../../lib/studies/participants';
import { finishParticipation, giveConsent, participation, saveRating, startParticipation, type Participation } from '../../lib/studies/participate';
import { openAppDatabase, pool } from '../support/app-database';
import { studyKb } from '../support/study-kb';
import type { TestDatabase } from '../support/test-database';

let testDb: TestDatabase;
let kbId: number;
let curator: number;

const QUERIES = ['Which gene is linked to Crohn disease?', 'What drug calms an inflamed colon?', 'Which protein moves SMAD signals?',
  'Name a pathway active in colitis', 'Which anatomy expresses IL10 most?', 'Which disease resembles Crohn disease?'];
const ATTENTION = 'To show you read this, choose 1 on naturalness.';
const PROLIFIC: CrowdConfigInput = {
  platform: 'prolific',
  completed: { code: 'C0MPLETE', url: 'https://app.prolific.com/submissions/complete?cc=C0MPLETE' },
  screenedOut: { code: 'SCREENED', url: 'https://app.prolific.com/submissions/complete?cc=SCREENED' },
  attentionFailed: { code: 'NOATTENTION', url: null },
};

beforeAll(async () => {
  testDb = await openAppDatabase();
  ({ kbId, curator } = await studyKb(QUERIES));
});
afterAll(async () => testDb.drop());

const status = async (p: Promise<unknown>) => ((await p.catch((e: unknown) => e)) as AppError).status;
const message = async (p: Promise<unknown>) => ((await p.catch((e: unknown) => e)) as AppError).message;

let studies = 0;
/** A study of two items per participant (plus the attention check), with a study link set up by `crowd`. */
async function crowdStudy(crowd: CrowdConfigInput, extra: Partial<StudyInput> = {}): Promise<{ id: number; link: string }> {
  const study = await createStudy(pool(), kbId, {
    name: `crowd-${++studies}`, sources: [{ querySet: 'ibd-human' }], itemsPerParticipant: 2, participantsPerItem: 3, seed: 5, open: true,
    attentionChecks: [{ text: ATTENTION, dimension: 'naturalness', accept: [1] }], ...extra,
  }, curator);
  await setStudyCrowd(pool(), study.id, crowdConfigSchema.parse(crowd), curator);
  return { id: study.id, link: study.linkToken! };
}

let addresses = 0;
const join = (link: string, params: Record<string, string>) => joinThroughLink(pool(), link, `10.2.0.${++addresses}`, params);
const prolific = (pid: string) => ({ PROLIFIC_PID: pid, STUDY_ID: '5f0c0ffee0123456789abcde', SESSION_ID: `session-${pid}` });

async function startAs(token: string | null): Promise<{ me: Awaited<ReturnType<typeof participantByToken>>; view: Participation }> {
  const me = await participantByToken(pool(), token!);
  await giveConsent(pool(), me);
  return { me, view: await startParticipation(pool(), me) };
}

/** Answers every item: 1 on naturalness for the attention check (`attention` otherwise), 3 elsewhere. */
async function rateAll(me: { id: number; studyId: number }, view: Participation, attention = 1): Promise<void> {
  for (const item of view.items) {
    for (const dimension of ['naturalness', 'diversity', 'practicality']) {
      const value = item.text === ATTENTION && dimension === 'naturalness' ? attention : 3;
      await saveRating(pool(), me, { itemId: item.itemId, dimension, value });
    }
  }
}

const participantCount = async (studyId: number) =>
  (await pool().query<{ n: number }>('SELECT count(*)::int AS n FROM study_participant WHERE study_id = $1', [studyId])).rows[0]!.n;

describe('crowdsourcing links', () => {
  it('refuses settings with bad codes or addresses, naming the field, and keeps the study as it was', async () => {
    const { id } = await crowdStudy(PROLIFIC);
    const bad = (crowd: unknown) => studyCrowdSchema.safeParse({ crowd }).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(bad({ ...PROLIFIC, completed: { code: 'OK', url: 'javascript:alert(1)' } })).toEqual(['crowd.completed.url: must be an http:// or https:// address']);
    expect(bad({ ...PROLIFIC, screenedOut: { code: 'has space', url: null } })).toEqual(['crowd.screenedOut.code: must be 1 to 64 letters, digits, - or _']);
    expect(bad({ ...PROLIFIC, params: ['PID'] })[0]).toMatch(/^crowd.params: must be left out or be prolific's own/);
    expect(bad({ platform: 'custom', completed: { code: 'X' } })).toEqual(['crowd.params: is required for custom parameters', 'crowd.idParam: must be one of params']);
    expect(bad({ ...PROLIFIC, cap: 0 })).toEqual(['crowd.cap: Too small: expected number to be >=1']);
    expect((await studyDetail(pool(), id)).crowd).toEqual(crowdConfigSchema.parse(PROLIFIC));
  });

  it('captures the platform parameters, checks them, and resumes a returning participant instead of starting twice', async () => {
    const { id, link } = await crowdStudy(PROLIFIC);
    expect(await message(join(link, { STUDY_ID: 'x' }))).toMatch(/missing PROLIFIC_PID: open the study from Prolific/);
    expect(await status(join(link, { PROLIFIC_PID: 'a b<script>' }))).toBe(400);
    expect(await message(join(link, { ...prolific('p1'), SESSION_ID: 'x"y' }))).toMatch(/^SESSION_ID: /);
    expect(await message(joinByStudyLink(pool(), link, '10.2.1.1'))).toMatch(/recruiting platform/);
    expect(await participantCount(id)).toBe(0);

    const first = await join(link, { ...prolific('p1'), other: 'ignored' });
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const { rows: [stored] } = await pool().query('SELECT external_id, external_params FROM study_participant WHERE study_id = $1', [id]);
    expect(stored).toEqual({ external_id: 'p1', external_params: prolific('p1') });
    const { me, view } = await startAs(first.token);
    await saveRating(pool(), me, { itemId: view.items[0]!.itemId, dimension: 'diversity', value: 4 });
    // Back again, from another address: the same participation, with its answer.
    const again = await join(link, prolific('p1'));
    expect(again.token).toBe(first.token);
    expect((await participation(pool(), await participantByToken(pool(), again.token!))).ratings).toHaveLength(1);
    expect(await participantCount(id)).toBe(1);
  });

  it('makes one participant of concurrent first visits with the same id', async () => {
    const { id, link } = await crowdStudy(PROLIFIC);
    const joins = await Promise.all(Array.from({ length: 8 }, () => join(link, prolific('racer'))));
    expect(new Set(joins.map((j) => j.token)).size).toBe(1);
    expect(await participantCount(id)).toBe(1);
  });

  it('screens out new participants past the cap and after closing with the screen-out code, and lets those already in back', async () => {
    const { id, link } = await crowdStudy({ ...PROLIFIC, cap: 2 });
    const joins = await Promise.all(['a', 'b', 'c', 'd'].map((pid) => join(link, prolific(pid))));
    expect(joins.filter((j) => j.token !== null)).toHaveLength(2);
    const refused = joins.filter((j) => j.token === null);
    expect(refused.map((j) => j.outcome)).toEqual([0, 1].map(() => ({ kind: 'screened-out', reason: 'cap', code: 'SCREENED', url: PROLIFIC.screenedOut!.url, platform: 'Prolific' })));
    expect(await participantCount(id)).toBe(2);
    const inside = ['a', 'b', 'c', 'd'][joins.findIndex((j) => j.token !== null)]!;
    expect((await join(link, prolific(inside))).token).not.toBeNull();

    const { me, view } = await startAs((await join(link, prolific(inside))).token);
    await setStudyStatus(pool(), id, 'CLOSED', curator);
    expect((await join(link, prolific('late'))).outcome).toMatchObject({ kind: 'screened-out', reason: 'closed', code: 'SCREENED' });
    // The one inside, not finished: their page gives the screen-out code too; nothing more is taken.
    expect((await participation(pool(), me)).crowd!.outcome).toMatchObject({ kind: 'screened-out', reason: 'closed', code: 'SCREENED' });
    expect(await status(saveRating(pool(), me, { itemId: view.items[0]!.itemId, dimension: 'diversity', value: 2 }))).toBe(409);
  });

  it('ends a participation at its time limit with the screen-out outcome, and refuses answers after it', async () => {
    const { link } = await crowdStudy({ ...PROLIFIC, timeLimitMinutes: 30 });
    const { me, view } = await startAs((await join(link, prolific('slow'))).token);
    const deadline = Date.parse(view.crowd!.deadline!);
    expect(deadline - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(view.crowd!.outcome).toBeNull();
    await pool().query(`UPDATE study_participant SET created_at = created_at - interval '31 minutes' WHERE id = $1`, [me.id]);
    expect((await participation(pool(), me)).crowd!.outcome).toMatchObject({ kind: 'screened-out', reason: 'time-limit', code: 'SCREENED' });
    expect(await message(saveRating(pool(), me, { itemId: view.items[0]!.itemId, dimension: 'diversity', value: 2 }))).toMatch(/time for this study is up/);
    expect(await status(finishParticipation(pool(), me))).toBe(409);
    // Starting again answers the outcome rather than an error (the page shows it).
    expect((await startParticipation(pool(), me)).crowd!.outcome!.reason).toBe('time-limit');
  });

  it('allows a second try at an attention check when the study says so, and ends the participation after the last', async () => {
    const { link } = await crowdStudy({ ...PROLIFIC, attentionAttempts: 2 });
    const { me, view } = await startAs((await join(link, prolific('careless'))).token);
    const check = view.items.find((i) => i.text === ATTENTION)!;
    const wrong = { itemId: check.itemId, dimension: 'naturalness', value: 4 };
    expect(await saveRating(pool(), me, wrong)).toEqual({ saved: false, retry: expect.stringMatching(/answer once more \(1 more try\)/) as unknown });
    expect((await participation(pool(), me)).ratings).toEqual([]);
    expect(await saveRating(pool(), me, wrong)).toEqual({ saved: true, ended: true });
    const ended = await participation(pool(), me);
    expect(ended.crowd!.outcome).toEqual({ kind: 'attention-failed', reason: 'attention', code: 'NOATTENTION', url: null, platform: 'Prolific' });
    expect(ended.ratings).toEqual([{ itemId: check.itemId, dimension: 'naturalness', value: 4, text: null }]);
    expect(await status(saveRating(pool(), me, { ...wrong, value: 1 }))).toBe(409);

    // A second try that is right goes on as usual; without a code of its own, failing attention gives the screen-out one.
    const one = await crowdStudy({ ...PROLIFIC, attentionFailed: null });
    const second = await startAs((await join(one.link, prolific('careful'))).token);
    const item = second.view.items.find((i) => i.text === ATTENTION)!;
    expect(await saveRating(pool(), second.me, { itemId: item.itemId, dimension: 'naturalness', value: 5 })).toEqual({ saved: true, ended: true });
    expect((await participation(pool(), second.me)).crowd!.outcome).toMatchObject({ kind: 'attention-failed', code: 'SCREENED' });
    const retried = await startAs((await join(link, prolific('second-time'))).token);
    const check2 = retried.view.items.find((i) => i.text === ATTENTION)!;
    expect((await saveRating(pool(), retried.me, { itemId: check2.itemId, dimension: 'naturalness', value: 2 })).saved).toBe(false);
    await rateAll(retried.me, retried.view);
    await finishParticipation(pool(), retried.me);
    expect((await participation(pool(), retried.me)).crowd!.outcome!.kind).toBe('completed');
  });

  it('completes with the completion code, shows it again on return, and exports ids, outcomes and times per item', async () => {
    const { id, link } = await crowdStudy(PROLIFIC);
    const { me, view } = await startAs((await join(link, { ...prolific('-A1'), SESSION_ID: '=1+2' })).token);
    await rateAll(me, view);
    await finishParticipation(pool(), me);
    await finishParticipation(pool(), me);
    const done = await participation(pool(), await participantByToken(pool(), (await join(link, prolific('-A1'))).token!));
    expect(done.crowd!.outcome).toEqual({ kind: 'completed', reason: 'finished', code: 'C0MPLETE', url: PROLIFIC.completed.url, platform: 'Prolific' });

    // The times, set on the stored rows: the participant started ten minutes ago and answered each item's dimensions
    // three seconds apart, its last one 40 s after starting, then 25 s and 12.5 s after the item before.
    const seconds = [40, 25, 12.5];
    const started = Math.floor(Date.now() / 1000) * 1000 - 600_000;
    const answered = seconds.map((_, i) => started + 1000 * seconds.slice(0, i + 1).reduce((a, b) => a + b, 0));
    await pool().query('UPDATE study_participant SET started_at = $2 WHERE id = $1', [me.id, new Date(started)]);
    for (const [i, item] of view.items.entries()) {
      await pool().query(
        `UPDATE rating SET created_at = $3::timestamptz - make_interval(secs => CASE dimension WHEN 'naturalness' THEN 6 WHEN 'diversity' THEN 3 ELSE 0 END)
          WHERE participant_id = $1 AND item_id = $2`, [me.id, item.itemId, new Date(answered[i]!)]);
    }

    const rows = await participantItems(pool(), id);
    expect(rows).toHaveLength(view.items.length);
    expect(rows.map((r) => [r.participant_kind, r.external_id, r.outcome, r.outcome_code, r.attention_misses])).toEqual(
      view.items.map(() => ['crowd', '-A1', 'completed', 'C0MPLETE', 0]));
    expect(rows.map((r) => r.position)).toEqual(view.items.map((_, i) => i));
    expect(rows.map((r) => r.item)).toEqual(view.items.map((i) => i.itemId));
    // An item is answered when its last dimension is: the first counts from starting, each other from the one before.
    expect(rows.map((r) => r.answered_at)).toEqual(answered.map((t) => new Date(t).toISOString()));
    expect(rows.map((r) => r.item_seconds)).toEqual(seconds);
    const csv = participantsCsv(rows).split('\n');
    expect(csv[0]).toBe('participant,participant_kind,external_id,external_params,started_at,finished_at,outcome,outcome_code,attention_misses,item,position,source,query_id,attention_check,answered_at,item_seconds');
    // Text from the link cannot run as a formula in a spreadsheet.
    expect(csv[1]).toContain(",'-A1,");
    const json = participantsJsonl(rows).trim().split('\n').map((l) => JSON.parse(l) as { external_id: string; external_params: Record<string, string> });
    expect(json[0]!.external_id).toBe('-A1');
    expect(json[0]!.external_params.SESSION_ID).toBe('=1+2');
  });
});
