import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../lib/auth/users';
import { Role } from '../../lib/auth/roles';
import { AppError } from '../../lib/errors';
import { importQueries } from '../../lib/queries/import';
import { cliQueryFiles, readQueryInput } from '../../lib/queries/input';
import { createRelease } from '../../lib/queries/releases';
import { getQuerySet } from '../../lib/queries/sets';
import { setStudyStatus, studyDetail } from '../../lib/studies/admin';
import { createStudy, type StudyInput } from '../../lib/studies/create';
import { rawCsv, rawRatings, summaryMarkdown } from '../../lib/studies/export';
import { JOIN_LIMIT_DEFAULTS } from '../../lib/studies/join-limits';
import { accountParticipant, issueLinks, joinByStudyLink, JoinLimited, participantByToken } from '../../lib/studies/participants';
import { accountParticipation, finishParticipation, giveConsent, participation, saveRating, startParticipation } from '../../lib/studies/participate';
import { studyReport } from '../../lib/studies/report';
import { lexicalDiversity } from '../../lib/queries/text-stats';
import { db, openAppDatabase, pool } from '../support/app-database';
import { importIbd } from '../support/primekg-ibd';
import { IBD_QA_CSV } from '../support/stark-qa';
import type { TestDatabase } from '../support/test-database';

let testDb: TestDatabase;
let kbId: number;
let curator: number;

const HUMAN = ['Which gene is linked to Crohn disease and signals through TGF-beta?', 'What drug calms an inflamed colon in children?', 'Which protein moves SMAD signals into the nucleus?', 'Name a pathway active in ulcerative colitis', 'Which anatomy expresses IL10 most?'];

beforeAll(async () => {
  testDb = await openAppDatabase();
  kbId = await importIbd(pool());
  curator = (await createUser(db(), { email: 'curator@example.org', password: 'a long password', role: Role.CURATOR })).id;
  const input = await readQueryInput('stark', cliQueryFiles('stark', [IBD_QA_CSV]));
  await importQueries(pool(), input.records, { kbId, setName: 'ibd-synth', origin: 'synthesized', unknownIds: 'reject', userId: null, sourceName: 'ibd.csv' });
  const { rows: [set] } = await pool().query<{ id: number }>(`INSERT INTO query_set (kb_id, name, origin) VALUES ($1, 'ibd-human', 'HUMAN') RETURNING id`, [kbId]);
  await pool().query(`INSERT INTO query (set_id, external_id, position, text, answer_ids) SELECT $1, (n - 1)::text, n - 1, t, ARRAY['144'] FROM unnest($2::text[]) WITH ORDINALITY u(t, n)`, [set!.id, HUMAN]);
  await createRelease(pool(), await getQuerySet(pool(), kbId, 'ibd-human'), { name: 'IBD', slug: 'ibd' }, { name: 'first', userId: curator });
});
afterAll(async () => testDb.drop());

const status = async (p: Promise<unknown>) => ((await p.catch((e: unknown) => e)) as AppError).status;
/** Each join from an address of its own unless one is given: these tests are about other rules than the join limits. */
let addresses = 0;
const join = (linkToken: string, address = `10.0.0.${++addresses}`) => joinByStudyLink(pool(), linkToken, address);
const STUDY: StudyInput = {
  name: 'blind-mix', consent: 'I agree to take part.', sources: [{ querySet: 'ibd-synth', sample: 10 }, { querySet: 'ibd-human', release: 1 }],
  itemsPerParticipant: 5, participantsPerItem: 2, seed: 42, open: true,
  attentionChecks: [{ text: 'To show you read this, choose 1 on naturalness.', dimension: 'naturalness', accept: [1] }],
};

describe('rating studies', () => {
  it('refuses bad definitions and creates nothing', async () => {
    expect(await status(createStudy(pool(), kbId, { ...STUDY, name: 'bad-1', sources: [{ querySet: 'nope' }] }, curator))).toBe(400);
    expect(await status(createStudy(pool(), kbId, { ...STUDY, name: 'bad-2', sources: [{ querySet: 'ibd-human', release: 9 }] }, curator))).toBe(400);
    expect(await status(createStudy(pool(), kbId, { ...STUDY, name: 'bad-3', attentionChecks: [{ text: 'x', dimension: 'naturalness', accept: [6] }] }, curator))).toBe(400);
    expect(await status(createStudy(pool(), kbId, { ...STUDY, name: 'bad-4', attentionChecks: [{ text: 'x', dimension: 'fun', accept: [1] }] }, curator))).toBe(400);
    expect((await pool().query('SELECT count(*)::int AS n FROM study')).rows[0]).toEqual({ n: 0 });
  });

  it('snapshots a seeded, blind mix of the sources: the same seed gives the same items in the same order', async () => {
    const a = await createStudy(pool(), kbId, STUDY, curator);
    const b = await createStudy(pool(), kbId, { ...STUDY, name: 'blind-mix-again', open: false }, curator);
    expect(a).toMatchObject({ items: 15, attentionChecks: 1 });
    expect(a.linkToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const order = async (id: number) => (await pool().query<{ k: string }>(`SELECT source || '/' || coalesce(query_external_id, '-') AS k FROM study_item WHERE study_id = $1 ORDER BY position`, [id])).rows.map((r) => r.k);
    expect(await order(a.id)).toEqual(await order(b.id));
    const detail = await studyDetail(pool(), a.id);
    expect(detail.sources).toEqual([{ source: 'ibd-human@1', items: 5 }, { source: 'ibd-synth', items: 10 }]);
    // The sources are mixed, not one block after the other.
    const sources = (await order(a.id)).filter((k) => !k.startsWith('attention')).map((k) => k.split('/')[0]);
    expect(sources.slice(0, 5)).not.toEqual(Array(5).fill(sources[0]));
  });

  it('shares items out with exactly the overlap asked for, however many participants arrive at once', async () => {
    const rater = (await createUser(db(), { email: 'rater@example.org', password: 'a long password', role: Role.RATER })).id;
    const created = await createStudy(pool(), kbId, { ...STUDY, name: 'overlap' }, curator);
    const joined = await Promise.all(Array.from({ length: 4 }, () => join(created.linkToken!)));
    const parts = [
      ...await Promise.all(joined.map((j) => participantByToken(pool(), j.token))),
      await accountParticipant(pool(), created.id, rater),
      ...await Promise.all((await issueLinks(pool(), created.id, 1, curator)).map((t) => participantByToken(pool(), t))),
    ];
    // Issued links hold no items until opened, so unused links take nothing from the others.
    expect((await pool().query('SELECT count(*)::int AS n FROM study_assignment a JOIN study_participant p ON p.id = a.participant_id WHERE p.study_id = $1', [created.id])).rows[0]).toEqual({ n: 0 });
    const views = await Promise.all(parts.map((p) => startParticipation(pool(), p)));
    // Starting again gives nothing more.
    expect((await startParticipation(pool(), parts[0]!)).items).toEqual(views[0]!.items);
    // 15 items, 2 participants each = 30 places; 6 participants of 5 items take them all, once each.
    for (const v of views) expect(v.items).toHaveLength(6);
    const { rows: perItem } = await pool().query<{ n: number }>(
      `SELECT count(a.participant_id)::int AS n FROM study_item i LEFT JOIN study_assignment a ON a.item_id = i.id WHERE i.study_id = $1 AND i.attention IS NULL GROUP BY i.id`, [created.id]);
    expect(perItem.map((r) => r.n)).toEqual(Array(15).fill(2));
    // A seventh finds the study full: only the attention check is left to give.
    const late = await participantByToken(pool(), (await join(created.linkToken!)).token);
    expect((await startParticipation(pool(), late)).items).toEqual([]);
    // Each participant has their own order.
    expect(new Set(views.map((v) => v.items.map((i) => i.itemId).join(','))).size).toBe(6);
    expect(await accountParticipant(pool(), created.id, rater)).toEqual(parts[4]);
  });

  it('saves every answer exactly once, refuses bad ones without storing them, and closes', async () => {
    const created = await createStudy(pool(), kbId, { ...STUDY, name: 'answers', participantsPerItem: 1, itemsPerParticipant: 15 }, curator);
    const myToken = (await join(created.linkToken!)).token;
    const me = await participantByToken(pool(), myToken);
    const other = await createStudy(pool(), kbId, { ...STUDY, name: 'other', consent: '' }, curator);
    const stranger = await participantByToken(pool(), (await join(other.linkToken!)).token);
    const view = await startParticipation(pool(), me);
    const item = view.items[0]!.itemId;
    expect(await status(saveRating(pool(), me, { itemId: item, dimension: 'naturalness', value: 4 }))).toBe(409);
    await giveConsent(pool(), me);
    expect(await status(saveRating(pool(), me, { itemId: item, dimension: 'naturalness', value: 6 }))).toBe(400);
    expect(await status(saveRating(pool(), me, { itemId: item, dimension: 'naturalness', value: 2.5 }))).toBe(400);
    expect(await status(saveRating(pool(), me, { itemId: item, dimension: 'fun', value: 3 }))).toBe(400);
    // A participant of another study, or a made-up item id, reaches nothing here.
    await startParticipation(pool(), stranger);
    expect(await status(saveRating(pool(), stranger, { itemId: item, dimension: 'naturalness', value: 3 }))).toBe(404);
    expect(await status(saveRating(pool(), me, { itemId: 999999, dimension: 'naturalness', value: 3 }))).toBe(404);
    expect((await pool().query('SELECT count(*)::int AS n FROM rating')).rows[0]).toEqual({ n: 0 });

    // Double submits (a retry, two clicks) land on the same row.
    await Promise.all(Array.from({ length: 5 }, () => saveRating(pool(), me, { itemId: item, dimension: 'naturalness', value: 4 })));
    // The participant's token reaches the same row; an unknown token reaches nothing.
    await saveRating(pool(), { token: myToken }, { itemId: item, dimension: 'naturalness', value: 5 });
    expect(await status(saveRating(pool(), { token: 'A'.repeat(32) }, { itemId: item, dimension: 'naturalness', value: 1 }))).toBe(404);
    const { rows } = await pool().query('SELECT value FROM rating WHERE participant_id = $1', [me.id]);
    expect(rows).toEqual([{ value: 5 }]);
    expect(await status(finishParticipation(pool(), me))).toBe(400);

    await setStudyStatus(pool(), created.id, 'CLOSED', curator);
    expect(await status(saveRating(pool(), me, { itemId: item, dimension: 'diversity', value: 3 }))).toBe(409);
    expect(await status(join(created.linkToken!))).toBe(409);
    const closed = await participation(pool(), me);
    expect(closed.study).toMatchObject({ open: false, closed: true });
    expect(closed.ratings).toEqual([{ itemId: item, dimension: 'naturalness', value: 5, text: null }]);
  });

  it('reports the results with each source\'s measured diversity, and exports them', async () => {
    const created = await createStudy(pool(), kbId, { ...STUDY, name: 'report', consent: '', participantsPerItem: 2, itemsPerParticipant: 15 }, curator);
    const people = await Promise.all([0, 1].map(async () => participantByToken(pool(), (await join(created.linkToken!)).token)));
    for (const [n, p] of people.entries()) {
      for (const item of (await startParticipation(pool(), p)).items) {
        const isCheck = item.text.startsWith('To show you read this');
        for (const dimension of ['naturalness', 'diversity', 'practicality']) {
          await saveRating(pool(), p, { itemId: item.itemId, dimension, value: isCheck && dimension === 'naturalness' ? (n === 0 ? 1 : 4) : 3 + ((item.itemId + n) % 3) });
        }
      }
      await finishParticipation(pool(), p);
    }
    const report = await studyReport(pool(), created.id, { bootstrapSamples: 100 });
    expect(report.participants).toBe(2);
    expect(report.attention.failed.map((f) => f.participantId)).toEqual([people[1]!.id]);
    const nat = report.dimensions.find((d) => d.key === 'naturalness')!;
    expect(nat.bySource.map((s) => [s.source, s.n])).toEqual([['ibd-human@1', 10], ['ibd-synth', 20]]);
    expect(nat.overall.nonNegative).toBe(1);
    expect(nat.agreement.pairs).toBe(15);
    const synth = report.diversity.find((d) => d.source === 'ibd-synth')!;
    const { rows: texts } = await pool().query<{ text: string }>(`SELECT q.text FROM query q JOIN query_set s ON s.id = q.set_id WHERE s.name = 'ibd-synth'`);
    expect(synth.queries).toBe(829);
    expect(synth.entropyBits).toBeCloseTo(lexicalDiversity(texts.map((t) => t.text)).entropyBits, 10);
    expect(report.diversity.find((d) => d.source === 'ibd-human@1')).toMatchObject({ queries: 5, nearDuplicatePairs: 0 });

    const without = await studyReport(pool(), created.id, { excludeFailed: true, bootstrapSamples: 10 });
    expect(without.participants).toBe(1);
    const md = summaryMarkdown(report);
    expect(md).toContain('| Source | Naturalness positive | Naturalness non-negative |');
    expect(md).toMatch(/\| ibd-synth \| [\d.]+ \| 100\.0 \|/);
    const csv = rawCsv(await rawRatings(pool(), created.id));
    expect(csv.split('\n')[0]).toBe('participant,participant_kind,item,source,query_id,attention_check,dimension,value,text,rated_at');
    expect(csv.trim().split('\n')).toHaveLength(1 + 2 * 16 * 3);
  });

  it('reads participations without making or handing out anything; starting does, for links and accounts', async () => {
    const rater = (await createUser(db(), { email: 'reader@example.org', password: 'a long password', role: Role.RATER })).id;
    const created = await createStudy(pool(), kbId, { ...STUDY, name: 'read-only' }, curator);
    const me = await participantByToken(pool(), (await join(created.linkToken!)).token);
    const counts = async () => (await pool().query<{ participants: number; assignments: number }>(
      `SELECT (SELECT count(*)::int FROM study_participant WHERE study_id = $1) AS participants,
              (SELECT count(*)::int FROM study_assignment a JOIN study_participant p ON p.id = a.participant_id WHERE p.study_id = $1) AS assignments`,
      [created.id])).rows[0];
    for (let i = 0; i < 3; i++) {
      const mine = await participation(pool(), me);
      expect(mine).toMatchObject({ items: [], participant: { startedAt: null } });
      const theirs = await accountParticipation(pool(), created.id, rater);
      expect(theirs).toMatchObject({ study: { name: 'read-only', open: true }, items: [], participant: { consentedAt: null, startedAt: null, finishedAt: null } });
    }
    expect(await counts()).toEqual({ participants: 1, assignments: 0 });
    // Rating or finishing needs items, which only starting gives.
    await giveConsent(pool(), me);
    expect(await status(finishParticipation(pool(), me))).toBe(409);
    const started = await startParticipation(pool(), me);
    expect(started.items).toHaveLength(6);
    expect(started.participant.startedAt).not.toBeNull();
    const account = await startParticipation(pool(), await accountParticipant(pool(), created.id, rater));
    expect((await accountParticipation(pool(), created.id, rater)).items).toEqual(account.items);
    expect(await counts()).toEqual({ participants: 2, assignments: 12 });
    await setStudyStatus(pool(), created.id, 'CLOSED', curator);
    expect(await status(startParticipation(pool(), await participantByToken(pool(), (await issueLinks(pool(), created.id, 1, curator))[0]!)))).toBe(409);
  });

  it('limits joins per address and per link, across concurrent joins, with the time to wait', async () => {
    const created = await createStudy(pool(), kbId, { ...STUDY, name: 'join-limits' }, curator);
    const outcomes = [];
    for (let i = 0; i < 12; i++) outcomes.push(await join(created.linkToken!, '203.0.113.7').then(() => 200, (e: AppError) => e));
    expect(outcomes.slice(0, JOIN_LIMIT_DEFAULTS.perAddress)).toEqual(Array(JOIN_LIMIT_DEFAULTS.perAddress).fill(200));
    for (const refused of outcomes.slice(JOIN_LIMIT_DEFAULTS.perAddress)) {
      expect(refused).toBeInstanceOf(JoinLimited);
      expect((refused as JoinLimited).status).toBe(429);
      expect((refused as JoinLimited).retryAfterSeconds).toBeGreaterThan(9 * 60);
      expect((refused as JoinLimited).retryAfterSeconds).toBeLessThanOrEqual(10 * 60);
    }
    const participants = async () => (await pool().query<{ n: number }>('SELECT count(*)::int AS n FROM study_participant WHERE study_id = $1', [created.id])).rows[0]!.n;
    expect(await participants()).toBe(JOIN_LIMIT_DEFAULTS.perAddress);
    // Another address still gets in; the refused one does again once its oldest join leaves the window.
    await join(created.linkToken!, '198.51.100.1');
    await pool().query(`UPDATE study_join SET at = at - interval '10 minutes' WHERE id = (SELECT min(id) FROM study_join WHERE study_id = $1)`, [created.id]);
    await join(created.linkToken!, '203.0.113.7');
    expect(await status(join(created.linkToken!, '203.0.113.7'))).toBe(429);

    // Concurrent joins count each other: 12 at once from one address make exactly the limit's participants.
    const burst = await createStudy(pool(), kbId, { ...STUDY, name: 'join-burst' }, curator);
    const settled = await Promise.allSettled(Array.from({ length: 12 }, () => join(burst.linkToken!, '203.0.113.8')));
    expect(settled.filter((r) => r.status === 'fulfilled')).toHaveLength(JOIN_LIMIT_DEFAULTS.perAddress);
    // The per-link limit holds over all addresses together.
    const limits = { ...JOIN_LIMIT_DEFAULTS, perLink: 8 };
    const crowd = await createStudy(pool(), kbId, { ...STUDY, name: 'join-crowd' }, curator);
    const joins = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => joinByStudyLink(pool(), crowd.linkToken!, `192.0.2.${i}`, limits)));
    expect(joins.filter((r) => r.status === 'fulfilled')).toHaveLength(8);
  });

  it('gives back the places of study-link participants who never rate, and keeps those of participants who did', async () => {
    // 15 items, 2 participants each, 5 per participant: 6 participants take every place.
    const created = await createStudy(pool(), kbId, { ...STUDY, name: 'reclaim', consent: '' }, curator);
    const tokens = await Promise.all(Array.from({ length: 6 }, async () => (await join(created.linkToken!)).token));
    const people = await Promise.all(tokens.map((t) => participantByToken(pool(), t)));
    const views = await Promise.all(people.map((p) => startParticipation(pool(), p)));
    const rater = people[0]!;
    await saveRating(pool(), rater, { itemId: views[0]!.items[0]!.itemId, dimension: 'naturalness', value: 4 });
    const newcomer = async () => participantByToken(pool(), (await join(created.linkToken!)).token);
    expect((await startParticipation(pool(), await newcomer())).items).toEqual([]);
    // Nothing goes back before the timeout.
    await pool().query(`UPDATE study_participant SET started_at = now() - interval '59 minutes' WHERE study_id = $1`, [created.id]);
    expect((await startParticipation(pool(), await newcomer())).items).toEqual([]);

    // An hour on, the five who never rated lose their items, and the people arriving, all at once, share them.
    await pool().query(`UPDATE study_participant SET started_at = now() - interval '61 minutes' WHERE study_id = $1`, [created.id]);
    const arrivals = await Promise.all(Array.from({ length: 7 }, async () => newcomer()));
    const given = await Promise.all(arrivals.map((p) => startParticipation(pool(), p)));
    expect(given.map((v) => v.items.length).sort()).toEqual([0, 0, 6, 6, 6, 6, 6]);
    const { rows: perItem } = await pool().query<{ n: number }>(
      `SELECT count(a.participant_id)::int AS n FROM study_item i LEFT JOIN study_assignment a ON a.item_id = i.id WHERE i.study_id = $1 AND i.attention IS NULL GROUP BY i.id`, [created.id]);
    expect(perItem.map((r) => r.n)).toEqual(Array(15).fill(2));
    // The one who rated keeps their items and answers; the others' links say what happened.
    expect((await participation(pool(), rater)).items).toEqual(views[0]!.items);
    await saveRating(pool(), rater, { itemId: views[0]!.items[1]!.itemId, dimension: 'naturalness', value: 2 });
    const gone = await participantByToken(pool(), tokens[1]!).catch((e: AppError) => e);
    expect(gone).toMatchObject({ status: 410, message: expect.stringContaining('expired') });
    expect(await status(saveRating(pool(), { token: tokens[1]! }, { itemId: views[1]!.items[0]!.itemId, dimension: 'naturalness', value: 3 }))).toBe(410);
    // Personal links and accounts are never reclaimed, however idle.
    const personal = await participantByToken(pool(), (await issueLinks(pool(), created.id, 1, curator))[0]!);
    await pool().query(`UPDATE study_participant SET started_at = now() - interval '1 day' WHERE study_id = $1`, [created.id]);
    await startParticipation(pool(), personal);
    expect((await pool().query('SELECT count(*)::int AS n FROM study_participant WHERE study_id = $1 AND expired_at IS NOT NULL AND NOT from_study_link', [created.id])).rows[0]).toEqual({ n: 0 });
  });

  it('refuses changes after finishing unless the study allows them', async () => {
    for (const allowEditsAfterFinish of [false, true]) {
      const created = await createStudy(pool(), kbId, { ...STUDY, name: `after-finish-${allowEditsAfterFinish}`, consent: '', itemsPerParticipant: 1, attentionChecks: [], allowEditsAfterFinish }, curator);
      expect((await studyDetail(pool(), created.id)).allowEditsAfterFinish).toBe(allowEditsAfterFinish);
      const me = await participantByToken(pool(), (await join(created.linkToken!)).token);
      const { items: [item] } = await startParticipation(pool(), me);
      for (const dimension of ['naturalness', 'diversity', 'practicality']) await saveRating(pool(), me, { itemId: item!.itemId, dimension, value: 3 });
      await finishParticipation(pool(), me);
      expect((await participation(pool(), me)).study.allowEditsAfterFinish).toBe(allowEditsAfterFinish);
      const change = saveRating(pool(), me, { itemId: item!.itemId, dimension: 'naturalness', value: 5 });
      if (allowEditsAfterFinish) await change;
      else expect(await change.catch((e: AppError) => e)).toMatchObject({ status: 409, message: expect.stringContaining('finished') });
      // Someone else's item stays not found, finished or not.
      expect(await status(saveRating(pool(), me, { itemId: 999999, dimension: 'naturalness', value: 5 }))).toBe(404);
      const { rows } = await pool().query(`SELECT value FROM rating WHERE participant_id = $1 AND dimension = 'naturalness'`, [me.id]);
      expect(rows).toEqual([{ value: allowEditsAfterFinish ? 5 : 3 }]);
    }
  });
});
