import { spawn } from 'node:child_process';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors';
import type { LlmConfig } from '../../lib/llm/types';
import { createStudy, type StudyInput } from '../../lib/studies/create';
import { DEFAULT_DIMENSIONS } from '../../lib/studies/dimensions';
import { modelRatingsCsv, rawModelRatings, summaryMarkdown } from '../../lib/studies/export';
import { processStart } from '../../lib/ingest/owner';
import { cancelModelRater, listModelRatersState, modelRaterRun, startModelRater } from '../../lib/studies/model-rater';
import { agreementWithHumans } from '../../lib/studies/model-rater-results';
import { listModelRaters } from '../../lib/studies/model-rater-store';
import { issueLinks, participantByToken } from '../../lib/studies/participants';
import { giveConsent, saveRating, startParticipation } from '../../lib/studies/participate';
import { studyReport } from '../../lib/studies/report';
import { openAppDatabase, pool } from '../support/app-database';
import { startFakeChatServer, type FakeReply } from '../support/fake-chat-server';
import { studyKb } from '../support/study-kb';
import type { TestDatabase } from '../support/test-database';

let testDb: TestDatabase;
let kbId: number;
let curator: number;
let studyId: number;
let fake: Awaited<ReturnType<typeof startFakeChatServer>>;

const QUERIES = ['Which gene is linked to Crohn disease and signals through TGF-beta?', 'What drug calms an inflamed colon in children?',
  'Which protein moves SMAD signals into the nucleus?', 'Name a pathway active in ulcerative colitis', 'Which anatomy expresses IL10 most?'];
const INSTRUCTIONS = 'Rate each query as a biomedical researcher would.';
const ATTENTION = 'To show you read this, choose 1 on naturalness.';
const RATED = ['naturalness', 'diversity', 'practicality', 'answerable'];

/** What the fake model answers per query (by its index in QUERIES). */
type Answer = (query: number) => FakeReply;
let answer: Answer;
const good: Answer = (q) => ({ content: JSON.stringify({ ratings: { naturalness: 1 + q, diversity: 3, practicality: 5 - q, answerable: q % 2 }, reason: `query ${q}` }) });

const config = (model: string | null): LlmConfig => ({
  main: model === null ? null : { baseUrl: fake.baseUrl, model },
  filterModels: [], concurrency: 2, timeoutMs: 5_000, maxRetries: 0,
});
const status = async (p: Promise<unknown>) => ((await p.catch((e: unknown) => e)) as AppError).status;
const queryOf = (content: string) => QUERIES.findIndex((q) => content.includes(q));

async function rateToEnd(model: string): Promise<number> {
  const { id } = await startModelRater(pool(), studyId, { model }, curator, { config: config('configured-model') });
  await modelRaterRun(id);
  return id;
}

async function storedRatings(model: string) {
  const { rows } = await pool().query<{ item: string; dimension: string; value: number | null; text: string | null; callId: number | null }>(
    `SELECT i.text AS item, r.dimension, r.value, r.text, r.call_id AS "callId" FROM study_model_rating r JOIN study_item i ON i.id = r.item_id
      WHERE r.study_id = $1 AND r.model = $2 ORDER BY i.text, r.dimension`, [studyId, model]);
  return rows;
}

beforeAll(async () => {
  testDb = await openAppDatabase();
  ({ kbId, curator } = await studyKb(QUERIES));
  const study: StudyInput = {
    name: 'with-a-model', instructions: INSTRUCTIONS, sources: [{ querySet: 'ibd-human' }], itemsPerParticipant: 6, participantsPerItem: 2, seed: 7, open: true, showAnswers: true,
    dimensions: [...DEFAULT_DIMENSIONS, { kind: 'binary', key: 'answerable', label: 'Answerable', question: 'The answers answer the query.', anchors: { 0: 'No', 1: 'Yes' }, required: true },
      { kind: 'text', key: 'comment', label: 'Comment', question: '', required: false }],
    attentionChecks: [{ text: ATTENTION, dimension: 'naturalness', accept: [1] }],
  };
  studyId = (await createStudy(pool(), kbId, study, curator)).id;
  // Two people rate every item (the attention check too, one of them failing it).
  for (const [n, token] of (await issueLinks(pool(), studyId, 2, curator)).entries()) {
    const me = await participantByToken(pool(), token);
    const view = await startParticipation(pool(), me);
    await giveConsent(pool(), me);
    for (const item of view.items) {
      const q = Math.max(0, QUERIES.indexOf(item.text));
      for (const dimension of RATED) {
        const value = dimension === 'answerable' ? (q + n) % 2 : item.text === ATTENTION && dimension === 'naturalness' ? 1 + 3 * n : 1 + ((q + n) % 5);
        await saveRating(pool(), me, { itemId: item.itemId, dimension, value });
      }
    }
  }
  answer = good;
  fake = await startFakeChatServer((req) => answer(queryOf(req.messages.map((m) => m.content).join('\n'))));
});
afterAll(async () => {
  await fake?.close();
  await testDb.drop();
});

describe('model raters', () => {
  it('are refused with a clear 400 when no LLM is configured, or when the study has nothing to rate', async () => {
    const err = await startModelRater(pool(), studyId, {}, curator, { config: config(null) }).catch((e: AppError) => e);
    expect(err).toMatchObject({ status: 400, message: expect.stringMatching(/No LLM is configured/) });
    const textOnly = await createStudy(pool(), kbId, { name: 'text-only', sources: [{ querySet: 'ibd-human' }], itemsPerParticipant: 1, participantsPerItem: 1,
      dimensions: [{ kind: 'text', key: 'comment', label: 'Comment' }] }, curator);
    expect(await status(startModelRater(pool(), textOnly.id, {}, curator, { config: config('m') }))).toBe(400);
    expect((await pool().query('SELECT count(*)::int AS n FROM study_model_rater')).rows[0]).toEqual({ n: 0 });
    expect(fake.requests).toHaveLength(0);
  });

  it('rate every item but the attention checks, storing each value with its call, and leave the human figures as they were', async () => {
    const before = await studyReport(pool(), studyId, { bootstrapSamples: 50 });
    expect(before.modelRaters).toEqual([]);
    // The configured model when none is named.
    const { id } = await startModelRater(pool(), studyId, {}, curator, { config: config('configured-model') });
    await modelRaterRun(id);
    expect(await listModelRaters(pool(), studyId)).toEqual([expect.objectContaining({
      id, model: 'configured-model', baseUrlHost: new URL(fake.baseUrl).host, status: 'SUCCEEDED', done: 5, total: 5, failures: 0, message: null, finishedAt: expect.anything(),
    })]);
    expect(fake.requests).toHaveLength(5);
    expect(fake.requests.every((r) => r.model === 'configured-model')).toBe(true);
    // The prompt: the study's instructions, its rated dimensions with their anchors (free text left out), the query and its answers.
    const prompt = fake.requests.map((r) => r.messages.map((m) => m.content).join('\n')).find((p) => p.includes(QUERIES[1]!))!;
    expect(prompt).toContain(INSTRUCTIONS);
    expect(prompt).toContain('"naturalness" (Naturalness): The query reads like something a real person would write or say.');
    expect(prompt).toContain('An integer from 1 to 5 (1 = Strongly disagree; 2 = Disagree; 3 = Neutral; 4 = Agree; 5 = Strongly agree)');
    expect(prompt).toContain('"answerable" (Answerable)');
    expect(prompt).not.toContain('"comment"');
    expect(prompt).not.toContain(ATTENTION);
    const answerName = (await pool().query<{ name: string }>(`SELECT name FROM entity WHERE kb_id = $1 AND external_id = '144'`, [kbId])).rows[0]!.name;
    expect(prompt).toContain(`- ${answerName}`);

    const stored = await storedRatings('configured-model');
    expect(stored).toHaveLength(5 * RATED.length);
    for (const r of stored) {
      const q = QUERIES.indexOf(r.item);
      expect(r.value).toBe({ naturalness: 1 + q, diversity: 3, practicality: 5 - q, answerable: q % 2 }[r.dimension]);
      expect(r.text).toBe(`query ${q}`);
    }
    const { rows: calls } = await pool().query<{ id: number; studyId: number; purpose: string }>(
      'SELECT id, study_id AS "studyId", purpose FROM llm_call WHERE id = ANY($1::int[])', [[...new Set(stored.map((r) => r.callId))]]);
    expect(calls).toHaveLength(5);
    expect(calls.every((c) => c.studyId === studyId && c.purpose === 'rate')).toBe(true);

    const after = await studyReport(pool(), studyId, { bootstrapSamples: 50 });
    const { modelRaters, ...human } = after;
    const { modelRaters: none, ...humanBefore } = before;
    expect(none).toEqual([]);
    expect(human).toEqual(humanBefore);
    expect(modelRaters).toHaveLength(1);
    const [rater] = modelRaters;
    expect(rater).toMatchObject({ model: 'configured-model', ratings: 20, failures: 0, done: 5, total: 5 });
    const naturalness = rater!.dimensions.find((d) => d.key === 'naturalness')!;
    expect(naturalness.summary).toMatchObject({ n: 5, mean: 3, distribution: { 1: 1, 2: 1, 3: 1, 4: 1, 5: 1 } });
    // The agreement, from the stored values: every item has two human ratings, so five units.
    const { rows: items } = await pool().query<{ id: number; text: string }>('SELECT id, text FROM study_item WHERE study_id = $1 AND attention IS NULL', [studyId]);
    const { rows: humanValues } = await pool().query<{ participantId: number; itemId: number; value: number }>(
      `SELECT r.participant_id AS "participantId", r.item_id AS "itemId", r.value FROM rating r JOIN study_participant p ON p.id = r.participant_id
        WHERE p.study_id = $1 AND r.dimension = 'naturalness'`, [studyId]);
    const modelValues = new Map(items.map((i) => [i.id, 1 + QUERIES.indexOf(i.text)]));
    const agreementOf = (people: typeof humanValues) => {
      const humans = new Map<number, number[]>();
      for (const h of people) humans.set(h.itemId, [...(humans.get(h.itemId) ?? []), h.value]);
      return agreementWithHumans(modelValues, humans, 'ordinal');
    };
    const expected = agreementOf(humanValues);
    expect(naturalness.agreementWithHumans).toEqual(expected);
    expect(expected.units).toBe(5);
    // Leaving out the participant who failed the attention check leaves them out of the human median too.
    const failed = after.attention.failed.map((f) => f.participantId);
    expect(failed).toHaveLength(1);
    const excluding = await studyReport(pool(), studyId, { bootstrapSamples: 10, excludeFailed: true });
    const withoutFailed = agreementOf(humanValues.filter((h) => !failed.includes(h.participantId)));
    expect(withoutFailed.alpha).not.toBe(expected.alpha);
    expect(excluding.modelRaters[0]!.dimensions[0]!.agreementWithHumans).toEqual(withoutFailed);
    expect(rater!.dimensions.map((d) => d.key)).toEqual(RATED);

    // Exports: the human ones as they were, the model in a section and a file of its own.
    expect(summaryMarkdown(before)).not.toContain('Model raters');
    expect(summaryMarkdown(after).startsWith(summaryMarkdown(before))).toBe(true);
    expect(summaryMarkdown(after)).toContain(`| configured-model | Naturalness | 5 | 3.00 | 40.0 | ${naturalness.agreementWithHumans.alpha!.toFixed(3)} | 5 |`);
    const csv = modelRatingsCsv(await rawModelRatings(pool(), studyId)).trimEnd().split('\n');
    expect(csv[0]).toBe('model,item,source,query_id,dimension,value,text,call_id,rated_at');
    expect(csv).toHaveLength(1 + 5 * RATED.length);
  });

  it('record a malformed or off-scale answer as a failure of that item, with its call, and retry only the failures when added again', async () => {
    const broken = (q: number): FakeReply => q === 0 ? { content: 'I would rather not say.' }
      : q === 3 ? { content: JSON.stringify({ ratings: { naturalness: 9, diversity: 3, practicality: 3, answerable: 1 }, reason: 'off the scale' }) }
        : good(q);
    answer = broken;
    const sent = fake.requests.length;
    const id = await rateToEnd('flaky-model');
    const [, flaky] = await listModelRaters(pool(), studyId);
    expect(flaky).toMatchObject({ id, model: 'flaky-model', status: 'SUCCEEDED', done: 3, total: 5, failures: 2, message: '2 items could not be rated; add the model again to retry them' });
    const stored = await storedRatings('flaky-model');
    const failed = stored.filter((r) => r.value === null);
    expect(new Set(failed.map((r) => r.item))).toEqual(new Set([QUERIES[0], QUERIES[3]]));
    expect(failed).toHaveLength(2 * RATED.length);
    for (const r of failed) {
      expect(r.text).toMatch(/^malformed: /);
      expect(r.callId).toEqual(expect.any(Number));
    }
    const { rows: [failedCall] } = await pool().query<{ status: string; response: string }>('SELECT status, response FROM llm_call WHERE id = $1', [failed[0]!.callId]);
    expect(failedCall!.status).toBe('malformed');
    // Failures are in the counts, never in the values.
    const report = await studyReport(pool(), studyId, { bootstrapSamples: 10 });
    expect(report.modelRaters.find((r) => r.model === 'flaky-model')).toMatchObject({ ratings: 3 * RATED.length, failures: 2 });

    // Added again: only the two failed items are asked for; the rated ones are kept.
    answer = good;
    const requested = fake.requests.length;
    expect(requested - sent).toBe(5);
    expect(await rateToEnd('flaky-model')).toBe(id);
    expect(fake.requests.slice(requested).map((r) => queryOf(r.messages.map((m) => m.content).join('\n'))).sort()).toEqual([0, 3]);
    expect((await listModelRaters(pool(), studyId))[1]).toMatchObject({ status: 'SUCCEEDED', done: 5, total: 5, failures: 0, message: null });
    expect((await storedRatings('flaky-model')).every((r) => r.value !== null)).toBe(true);
    // A model that has rated everything asks for nothing more.
    const settled = fake.requests.length;
    await rateToEnd('configured-model');
    expect(fake.requests.length).toBe(settled);
    // An item whose call was answered but whose ratings were not written (the server stopped in between): resuming
    // takes the stored answer again instead of asking the endpoint.
    await pool().query(`DELETE FROM study_model_rating WHERE study_id = $1 AND model = 'configured-model' AND item_id = (SELECT min(item_id) FROM study_model_rating WHERE study_id = $1)`, [studyId]);
    expect(await storedRatings('configured-model')).toHaveLength(4 * RATED.length);
    await rateToEnd('configured-model');
    expect(fake.requests.length).toBe(settled);
    expect(await storedRatings('configured-model')).toHaveLength(5 * RATED.length);
    expect((await listModelRaters(pool(), studyId))[0]).toMatchObject({ status: 'SUCCEEDED', done: 5, failures: 0 });
  });

  it('fail a run when the endpoint fails every item, and refuse a second add while the model rates', async () => {
    answer = () => ({ status: 500, body: 'down' });
    await rateToEnd('down-model');
    expect((await listModelRaters(pool(), studyId)).find((r) => r.model === 'down-model')).toMatchObject({ status: 'FAILED', done: 0, failures: 5, message: expect.stringMatching(/No item could be rated/) });

    answer = (q) => ({ ...(good(q) as { content: string }), delayMs: 300 });
    const { id } = await startModelRater(pool(), studyId, { model: 'slow-model' }, curator, { config: config('configured-model') });
    expect(await status(startModelRater(pool(), studyId, { model: 'slow-model' }, curator, { config: config('configured-model') }))).toBe(409);
    expect((await listModelRaters(pool(), studyId)).find((r) => r.id === id)).toMatchObject({ status: 'RUNNING' });
    await modelRaterRun(id);
    expect((await listModelRaters(pool(), studyId)).find((r) => r.id === id)).toMatchObject({ status: 'SUCCEEDED', done: 5 });
  });

  it('stop starting items when cancelled, keep what was rated, and resume when added again', async () => {
    answer = (q) => ({ ...(good(q) as { content: string }), delayMs: 400 });
    const { id } = await startModelRater(pool(), studyId, { model: 'cancelled-model' }, curator, { config: config('configured-model') });
    expect(await status(cancelModelRater(pool(), studyId, 'no-such-model', curator))).toBe(404);
    expect(await cancelModelRater(pool(), studyId, 'cancelled-model', curator)).toEqual({ id });
    await modelRaterRun(id);
    // The two requests in flight (concurrency 2) were answered and kept; no other item was started.
    expect((await listModelRaters(pool(), studyId)).find((r) => r.id === id)).toMatchObject({ status: 'CANCELLED', done: 2, total: 5, message: expect.stringMatching(/^Cancelled/) });
    expect(await status(cancelModelRater(pool(), studyId, 'cancelled-model', curator))).toBe(409);
    await rateToEnd('cancelled-model');
    expect((await listModelRaters(pool(), studyId)).find((r) => r.id === id)).toMatchObject({ status: 'SUCCEEDED', done: 5, failures: 0 });
  });

  it('hold across app processes: a run in another live process is refused a second add and cancelled through its row; one whose process died is resumed', async () => {
    // Another app process, as far as the rater's row can tell: a live process on this host with its own start.
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    const otherExited = new Promise((resolve) => other.once('exit', resolve));
    try {
      const { rows: [row] } = await pool().query<{ id: number }>(
        `INSERT INTO study_model_rater (study_id, model, base_url_host, status, total, owner_host, owner_pid, owner_start)
         VALUES ($1, 'elsewhere-model', 'llm.example', 'RUNNING', 5, $2, $3, $4) RETURNING id`, [studyId, os.hostname(), other.pid, processStart(other.pid!)]);
      const id = row!.id;
      const stateOf = async () => (await listModelRatersState(pool(), studyId)).find((r) => r.id === id);
      expect(await stateOf()).toMatchObject({ status: 'RUNNING', interrupted: false });
      expect(await status(startModelRater(pool(), studyId, { model: 'elsewhere-model' }, curator, { config: config('configured-model') }))).toBe(409);
      // The cancel is left on the row for the process that rates, which reads it after its next item.
      expect(await cancelModelRater(pool(), studyId, 'elsewhere-model', curator)).toEqual({ id });
      expect((await pool().query('SELECT status, cancel_requested AS c FROM study_model_rater WHERE id = $1', [id])).rows[0]).toEqual({ status: 'RUNNING', c: true });

      other.kill('SIGKILL');
      await otherExited;
      expect(await stateOf()).toMatchObject({ status: 'RUNNING', interrupted: true });
      answer = good;
      expect(await rateToEnd('elsewhere-model')).toBe(id);
      expect(await stateOf()).toMatchObject({ status: 'SUCCEEDED', done: 5, interrupted: false });
    } finally {
      other.kill('SIGKILL');
    }

    // A cancel asked for by another process (only the row changes) stops a run here after its items in flight.
    answer = (q) => ({ ...(good(q) as { content: string }), delayMs: 400 });
    const { id } = await startModelRater(pool(), studyId, { model: 'cancelled-elsewhere' }, curator, { config: config('configured-model') });
    await pool().query('UPDATE study_model_rater SET cancel_requested = true WHERE id = $1', [id]);
    await modelRaterRun(id);
    expect((await listModelRaters(pool(), studyId)).find((r) => r.id === id)).toMatchObject({ status: 'CANCELLED', done: 2 });
  });
});
