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
import { accountParticipant, issueLinks, joinByStudyLink, participantByToken } from '../../lib/studies/participants';
import { finishParticipation, giveConsent, participation, saveRating } from '../../lib/studies/participate';
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
    const joined = await Promise.all(Array.from({ length: 4 }, () => joinByStudyLink(pool(), created.linkToken!)));
    const parts = [
      ...await Promise.all(joined.map((j) => participantByToken(pool(), j.token))),
      await accountParticipant(pool(), created.id, rater),
      ...await Promise.all((await issueLinks(pool(), created.id, 1, curator)).map((t) => participantByToken(pool(), t))),
    ];
    // Issued links hold no items until opened, so unused links take nothing from the others.
    expect((await pool().query('SELECT count(*)::int AS n FROM study_assignment a JOIN study_participant p ON p.id = a.participant_id WHERE p.study_id = $1', [created.id])).rows[0]).toEqual({ n: 0 });
    const views = await Promise.all(parts.map((p) => participation(pool(), p)));
    // 15 items, 2 participants each = 30 places; 6 participants of 5 items take them all, once each.
    for (const v of views) expect(v.items).toHaveLength(6);
    const { rows: perItem } = await pool().query<{ n: number }>(
      `SELECT count(a.participant_id)::int AS n FROM study_item i LEFT JOIN study_assignment a ON a.item_id = i.id WHERE i.study_id = $1 AND i.attention IS NULL GROUP BY i.id`, [created.id]);
    expect(perItem.map((r) => r.n)).toEqual(Array(15).fill(2));
    // A seventh finds the study full: only the attention check is left to give.
    const late = await participantByToken(pool(), (await joinByStudyLink(pool(), created.linkToken!)).token);
    expect((await participation(pool(), late)).items).toEqual([]);
    // Each participant has their own order.
    expect(new Set(views.map((v) => v.items.map((i) => i.itemId).join(','))).size).toBe(6);
    expect(await accountParticipant(pool(), created.id, rater)).toEqual(parts[4]);
  });

  it('saves every answer exactly once, refuses bad ones without storing them, and closes', async () => {
    const created = await createStudy(pool(), kbId, { ...STUDY, name: 'answers', participantsPerItem: 1, itemsPerParticipant: 15 }, curator);
    const myToken = (await joinByStudyLink(pool(), created.linkToken!)).token;
    const me = await participantByToken(pool(), myToken);
    const other = await createStudy(pool(), kbId, { ...STUDY, name: 'other', consent: '' }, curator);
    const stranger = await participantByToken(pool(), (await joinByStudyLink(pool(), other.linkToken!)).token);
    const view = await participation(pool(), me);
    const item = view.items[0]!.itemId;
    expect(await status(saveRating(pool(), me, { itemId: item, dimension: 'naturalness', value: 4 }))).toBe(409);
    await giveConsent(pool(), me);
    expect(await status(saveRating(pool(), me, { itemId: item, dimension: 'naturalness', value: 6 }))).toBe(400);
    expect(await status(saveRating(pool(), me, { itemId: item, dimension: 'naturalness', value: 2.5 }))).toBe(400);
    expect(await status(saveRating(pool(), me, { itemId: item, dimension: 'fun', value: 3 }))).toBe(400);
    // A participant of another study, or a made-up item id, reaches nothing here.
    await participation(pool(), stranger);
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
    expect(await status(joinByStudyLink(pool(), created.linkToken!))).toBe(409);
    const closed = await participation(pool(), me);
    expect(closed.study).toMatchObject({ open: false, closed: true });
    expect(closed.ratings).toEqual([{ itemId: item, dimension: 'naturalness', value: 5, text: null }]);
  });

  it('reports the results with each source\'s measured diversity, and exports them', async () => {
    const created = await createStudy(pool(), kbId, { ...STUDY, name: 'report', consent: '', participantsPerItem: 2, itemsPerParticipant: 15 }, curator);
    const people = await Promise.all([0, 1].map(async () => participantByToken(pool(), (await joinByStudyLink(pool(), created.linkToken!)).token)));
    for (const [n, p] of people.entries()) {
      for (const item of (await participation(pool(), p)).items) {
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
});
