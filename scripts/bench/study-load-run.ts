// Study load: many anonymous participants at once join a rating study through its link, open it, agree to
// the consent text, rate every item on every dimension (some answers sent twice at once, as a double click
// does, and some changed later) and finish. Every answer the server acknowledges goes into a ledger, which is
// checked against the database afterwards: each acknowledged answer stored once with its last value, nothing
// else, and the items shared out with exactly the study's overlap. The benchmark drives it over HTTP; its
// test through the library.
import type pg from 'pg';
import type { PrismaClient } from '../../lib/db/generated/client';
import { buildDemoCatalogue } from '../../lib/demo/catalogue';
import { DEMO_QUERY_SET } from '../../lib/demo/queries';
import { seedDemo } from '../../lib/demo/seed';
import { mulberry32 } from '../../lib/random';
import { createStudy } from '../../lib/studies/create';
import { DEFAULT_DIMENSIONS, points, type Dimension } from '../../lib/studies/dimensions';
import { hashToken } from '../../lib/studies/tokens';
import { acknowledged, errorOf, type Answer } from './app-server';
import { percentile, thinkLabel, thinkTime } from './measure';
import type { RatingBody, StudyClient } from './study-load-clients';

export interface LoadStudy {
  studyId: number;
  linkToken: string;
  participants: number;
  items: number;
  itemsPerParticipant: number;
  participantsPerItem: number;
  dimensions: Dimension[];
}

export const LOAD_CONSENT = 'I agree that my answers are stored and published without my name.';

/**
 * The demo data (as `skb serve --demo` loads it) and an open study over the demo query set with the default
 * dimensions and a consent text, whose overlap makes `participants` each get `itemsPerParticipant` items and
 * uses every place: participants x items per participant = queries x participants per item.
 */
export async function prepareLoadStudy(pool: pg.Pool, prisma: PrismaClient, opts: { participants: number; itemsPerParticipant: number }): Promise<LoadStudy> {
  await seedDemo(pool, prisma);
  const { rows: [kb] } = await pool.query<{ id: number }>('SELECT id FROM knowledge_base WHERE slug = $1', [buildDemoCatalogue().slug]);
  const { rows: [set] } = await pool.query<{ queries: number }>(
    'SELECT count(*)::int AS queries FROM query q JOIN query_set s ON s.id = q.set_id WHERE s.kb_id = $1 AND s.name = $2', [kb!.id, DEMO_QUERY_SET]);
  const places = opts.participants * opts.itemsPerParticipant;
  if (opts.itemsPerParticipant > set!.queries || places % set!.queries) {
    throw new Error(`${opts.participants} participants x ${opts.itemsPerParticipant} items do not share out evenly over the ${set!.queries} demo queries`);
  }
  const participantsPerItem = places / set!.queries;
  const study = await createStudy(pool, kb!.id, {
    name: 'study-load', consent: LOAD_CONSENT, dimensions: DEFAULT_DIMENSIONS, sources: [{ querySet: DEMO_QUERY_SET }],
    itemsPerParticipant: opts.itemsPerParticipant, participantsPerItem, seed: 20261123, open: true,
  }, null);
  return {
    studyId: study.id, linkToken: study.linkToken!, participants: opts.participants, items: study.items,
    itemsPerParticipant: opts.itemsPerParticipant, participantsPerItem, dimensions: DEFAULT_DIMENSIONS,
  };
}

export interface StudyLoadPlan {
  /** Mean pause of a participant between requests (reading, choosing), jittered ±50%; 0 sends them back to back. */
  thinkMs: number;
  /** Share of answers sent twice at once, as a double click does. */
  doubleShare: number;
  /** Share of items on which one answer is changed once the item's answers are in. */
  changeShare: number;
  seed: number;
}

interface Script {
  /** `position:dimension index` of the answers sent twice at once. */
  doubles: Set<string>;
  /** Item position to the index of the dimension whose answer is changed. */
  changes: Map<number, number>;
}

/** A participant's double submits and changed answers, drawn from their own seeded stream. */
function scriptOf(study: LoadStudy, plan: StudyLoadPlan, index: number): Script {
  const rng = mulberry32(plan.seed + index);
  const script: Script = { doubles: new Set(), changes: new Map() };
  for (let position = 0; position < study.itemsPerParticipant; position++) {
    for (let d = 0; d < study.dimensions.length; d++) if (rng() < plan.doubleShare) script.doubles.add(`${position}:${d}`);
    if (rng() < plan.changeShare) script.changes.set(position, Math.floor(rng() * study.dimensions.length));
  }
  return script;
}

/** Requests a run sends when nothing fails: join, open, consent and finish, and every answer as scripted. */
export function plannedRequests(study: LoadStudy, plan: StudyLoadPlan): number {
  let total = 0;
  for (let index = 0; index < study.participants; index++) {
    const script = scriptOf(study, plan, index);
    total += 4 + study.itemsPerParticipant * study.dimensions.length + script.doubles.size + script.changes.size;
  }
  return total;
}

/** The answer participant `index` gives: derived from who, what and which scale, so the stored value names it. */
export function answerValue(dimension: Dimension, index: number, itemId: number, dimensionIndex: number, changed: boolean): number {
  const scale = points(dimension);
  const i = (index * 7 + itemId * 3 + dimensionIndex * 2) % scale.length;
  return scale[changed ? (i + 1) % scale.length : i]!;
}

export type RequestKind = 'join' | 'open' | 'consent' | 'save' | 'finish';
export const REQUEST_KINDS: [RequestKind, string][] = [
  ['join', 'join by the study link'], ['open', 'open the study (items given)'], ['consent', 'consent'], ['save', 'save an answer'], ['finish', 'finish'],
];

export interface LedgerParticipant {
  index: number;
  token: string;
  /** Item ids as the participant was shown them. */
  items: number[];
  finished: boolean;
}

export interface LedgerAnswer {
  index: number;
  itemId: number;
  dimension: string;
  /** The value of the last acknowledged save. */
  value: number;
  acknowledged: number;
}

/** Everything the server acknowledged (2xx), as the participants' browsers saw it. */
export interface Ledger {
  participants: Map<number, LedgerParticipant>;
  /** By `index:itemId:dimension`. */
  answers: Map<string, LedgerAnswer>;
}

export interface StudyLoadResult {
  ledger: Ledger;
  /** Milliseconds per request, by kind; both of a double submit count as saves. */
  latencies: Record<RequestKind, number[]>;
  requests: number;
  loadMs: number;
  doubleSubmits: number;
  changedAnswers: number;
  serverErrors: number;
  /** 4xx: none is expected, every request is one a participant is allowed to send. */
  refusals: number;
  unanswered: number;
  problems: string[];
}

const answerKey = (index: number, itemId: number, dimension: string) => `${index}:${itemId}:${dimension}`;

const tokenOf = (body: unknown) => {
  const token = (body as { token?: unknown } | null)?.token;
  return typeof token === 'string' ? token : null;
};
const itemsOf = (body: unknown) => ((body as { items?: { itemId: number }[] } | null)?.items ?? []).map((i) => i.itemId);

class StudyRun {
  readonly ledger: Ledger = { participants: new Map(), answers: new Map() };
  readonly result: StudyLoadResult = {
    ledger: this.ledger, latencies: { join: [], open: [], consent: [], save: [], finish: [] }, requests: 0, loadMs: 0,
    doubleSubmits: 0, changedAnswers: 0, serverErrors: 0, refusals: 0, unanswered: 0, problems: [],
  };

  constructor(private readonly client: StudyClient, private readonly onAnswer: (kind: RequestKind) => void) {}

  async send(kind: RequestKind, request: (client: StudyClient) => Promise<Answer>): Promise<Answer> {
    const started = performance.now();
    const answer = await request(this.client);
    this.result.latencies[kind].push(performance.now() - started);
    this.result.requests += 1;
    this.onAnswer(kind);
    return answer;
  }

  /** Counts a request the server did not acknowledge; false, so that the participant stops there. */
  refused(answer: Answer, what: string): false {
    if (answer.status === 0) this.result.unanswered += 1;
    else if (answer.status >= 500) this.result.serverErrors += 1;
    else this.result.refusals += 1;
    this.result.problems.push(`${what}: answered ${answer.status || 'nothing'} ${errorOf(answer)}`.trim());
    return false;
  }

  /** Saves one answer, `twice` at once when scripted so, and records each acknowledgement. */
  async save(me: LedgerParticipant, body: RatingBody, twice: boolean): Promise<boolean> {
    const what = `participant ${me.index + 1} answer on item ${body.itemId} ${body.dimension}`;
    const answers = await Promise.all(Array.from({ length: twice ? 2 : 1 }, () => this.send('save', (c) => c.rate(me.token, body))));
    if (twice) this.result.doubleSubmits += 1;
    const acked = answers.filter(acknowledged).length;
    if (acked) {
      const key = answerKey(me.index, body.itemId, body.dimension);
      const seen = this.ledger.answers.get(key)?.acknowledged ?? 0;
      this.ledger.answers.set(key, { index: me.index, itemId: body.itemId, dimension: body.dimension, value: body.value, acknowledged: seen + acked });
    }
    const refused = answers.find((a) => !acknowledged(a));
    return refused ? this.refused(refused, what) : true;
  }
}

/**
 * One participant's visit, a request at a time as their browser sends them, with a pause before each but
 * the first: join, open, consent, every dimension of every item in the order given, then finish. A refusal
 * ends the visit (none is expected).
 */
async function participate(run: StudyRun, study: LoadStudy, plan: StudyLoadPlan, index: number): Promise<void> {
  const who = `participant ${index + 1}`;
  const script = scriptOf(study, plan, index);
  const think = thinkTime(plan.thinkMs, plan.seed + 1_000_000 + index);
  const joined = await run.send('join', (c) => c.join(study.linkToken));
  const token = acknowledged(joined) ? tokenOf(joined.body) : null;
  if (!token) return void run.refused(joined, `${who} join`);
  const me: LedgerParticipant = { index, token, items: [], finished: false };
  run.ledger.participants.set(index, me);

  await think();
  const opened = await run.send('open', (c) => c.open(token));
  if (!acknowledged(opened)) return void run.refused(opened, `${who} open`);
  me.items = itemsOf(opened.body);
  if (me.items.length !== study.itemsPerParticipant) run.result.problems.push(`${who} was given ${me.items.length} items, not ${study.itemsPerParticipant}`);
  await think();
  const consented = await run.send('consent', (c) => c.consent(token));
  if (!acknowledged(consented)) return void run.refused(consented, `${who} consent`);

  for (const [position, itemId] of me.items.entries()) {
    for (const [d, dimension] of study.dimensions.entries()) {
      await think();
      const body = { itemId, dimension: dimension.key, value: answerValue(dimension, index, itemId, d, false) };
      if (!await run.save(me, body, script.doubles.has(`${position}:${d}`))) return;
    }
    const change = script.changes.get(position);
    if (change === undefined) continue;
    await think();
    const dimension = study.dimensions[change]!;
    if (!await run.save(me, { itemId, dimension: dimension.key, value: answerValue(dimension, index, itemId, change, true) }, false)) return;
    run.result.changedAnswers += 1;
  }
  await think();
  const finished = await run.send('finish', (c) => c.finish(token));
  if (!acknowledged(finished)) return void run.refused(finished, `${who} finish`);
  me.finished = true;
}

/** A well-formed token that stands for nobody. */
const NOBODY = 'warm-up-token-that-is-not-valid0';

/** Copies of each warm-up request sent at once, on as many connections, so that each of several app processes gets some. */
const WARM_UP_COPIES = 4;

/**
 * Untimed requests to each participant route with a token that stands for nobody: a 404 each and nothing
 * stored, but the app has loaded the routes' code, which a freshly started server does on first use.
 */
async function warmUp(run: StudyRun, client: StudyClient): Promise<void> {
  const tries: [RequestKind, Promise<Answer>][] = Array.from({ length: WARM_UP_COPIES }, (): [RequestKind, Promise<Answer>][] => [
    ['join', client.join(NOBODY)], ['open', client.open(NOBODY)], ['consent', client.consent(NOBODY)],
    ['save', client.rate(NOBODY, { itemId: 1, dimension: 'naturalness', value: 1 })], ['finish', client.finish(NOBODY)],
  ]).flat();
  for (const [kind, pending] of tries) {
    const answer = await pending;
    if (answer.status !== 404) run.result.problems.push(`warm-up ${kind} with a token of nobody answered ${answer.status || 'nothing'} ${errorOf(answer)}`.trim());
  }
}

/**
 * All participants at once, from their join to their finish (timed), after a warm-up. `onAnswer` is called per
 * timed request, for progress.
 */
export async function runStudyLoad(study: LoadStudy, client: StudyClient, plan: StudyLoadPlan, onAnswer: (kind: RequestKind) => void = () => {}): Promise<StudyLoadResult> {
  const run = new StudyRun(client, onAnswer);
  await warmUp(run, client);
  const started = performance.now();
  await Promise.all(Array.from({ length: study.participants }, (_, index) => participate(run, study, plan, index)));
  run.result.loadMs = performance.now() - started;
  return run.result;
}

export interface StudyVerification {
  participantRows: number;
  finishedRows: number;
  assignmentRows: number;
  ratingRows: number;
  /** Acknowledged answers, joins or finishes missing from the database, or answers holding another value. */
  lost: number;
  /** Rows no acknowledged request explains, or one answer stored twice. */
  duplicated: number;
  /** Participants without exactly the study's items per participant, items without exactly its participants per
   * item, and participants whose stored items are not the ones they were shown. */
  misassigned: number;
  problems: string[];
}

/** Compares the study's rows with the ledger. */
export async function verifyStudyLoad(pool: pg.Pool, study: LoadStudy, ledger: Ledger): Promise<StudyVerification> {
  const v: StudyVerification = { participantRows: 0, finishedRows: 0, assignmentRows: 0, ratingRows: 0, lost: 0, duplicated: 0, misassigned: 0, problems: [] };
  const lost = (p: string) => { v.lost += 1; v.problems.push(`lost: ${p}`); };
  const duplicated = (p: string) => { v.duplicated += 1; v.problems.push(`duplicated: ${p}`); };
  const misassigned = (p: string) => { v.misassigned += 1; v.problems.push(`misassigned: ${p}`); };

  const participants = (await pool.query<{ id: number; token_hash: string; finished: boolean }>(
    'SELECT id, token_hash, finished_at IS NOT NULL AS finished FROM study_participant WHERE study_id = $1', [study.studyId])).rows;
  v.participantRows = participants.length;
  v.finishedRows = participants.filter((p) => p.finished).length;
  const byHash = new Map(participants.map((p) => [p.token_hash, p]));
  const idOf = new Map<number, number>();
  for (const me of ledger.participants.values()) {
    const row = byHash.get(hashToken(me.token));
    if (!row) { lost(`participant ${me.index + 1}, whose join was acknowledged`); continue; }
    idOf.set(me.index, row.id);
    if (me.finished && !row.finished) lost(`finish of participant ${me.index + 1}`);
    if (!me.finished && row.finished) duplicated(`participant ${me.index + 1} finished with no finish acknowledged`);
  }
  const joined = new Set(idOf.values());
  for (const p of participants.filter((x) => !joined.has(x.id))) duplicated(`participant row ${p.id} that no join returned`);

  const assignments = (await pool.query<{ participant_id: number; item_id: number }>(
    `SELECT a.participant_id, a.item_id FROM study_assignment a JOIN study_participant p ON p.id = a.participant_id
      WHERE p.study_id = $1 ORDER BY a.participant_id, a.item_id`, [study.studyId])).rows;
  v.assignmentRows = assignments.length;
  const itemsOfParticipant = new Map<number, number[]>(participants.map((p) => [p.id, []]));
  for (const a of assignments) itemsOfParticipant.get(a.participant_id)!.push(a.item_id);
  for (const [id, items] of itemsOfParticipant) {
    if (items.length !== study.itemsPerParticipant) misassigned(`participant row ${id} holds ${items.length} items, not ${study.itemsPerParticipant}`);
  }
  for (const me of ledger.participants.values()) {
    const stored = itemsOfParticipant.get(idOf.get(me.index) ?? -1);
    const shown = [...me.items].sort((a, b) => a - b);
    if (stored && stored.join() !== shown.join()) misassigned(`participant ${me.index + 1} was shown items ${shown.join(', ')} but holds ${stored.join(', ')}`);
  }
  const perItem = (await pool.query<{ id: number; participants: number }>(
    `SELECT i.id, count(a.participant_id)::int AS participants FROM study_item i LEFT JOIN study_assignment a ON a.item_id = i.id
      WHERE i.study_id = $1 GROUP BY i.id`, [study.studyId])).rows;
  for (const item of perItem) {
    if (item.participants !== study.participantsPerItem) misassigned(`item ${item.id} has ${item.participants} participants, not ${study.participantsPerItem}`);
  }

  const ratings = (await pool.query<{ participant_id: number; item_id: number; dimension: string; value: number | null }>(
    `SELECT r.participant_id, r.item_id, r.dimension, r.value FROM rating r JOIN study_participant p ON p.id = r.participant_id
      WHERE p.study_id = $1`, [study.studyId])).rows;
  v.ratingRows = ratings.length;
  const stored = new Map<string, number | null>();
  for (const r of ratings) {
    const key = `${r.participant_id}:${r.item_id}:${r.dimension}`;
    if (stored.has(key)) duplicated(`answer of participant row ${r.participant_id} on item ${r.item_id} ${r.dimension} stored twice`);
    stored.set(key, r.value);
  }
  const explained = new Set<string>();
  for (const answer of ledger.answers.values()) {
    const id = idOf.get(answer.index);
    const key = `${id}:${answer.itemId}:${answer.dimension}`;
    const what = `answer of participant ${answer.index + 1} on item ${answer.itemId} ${answer.dimension}`;
    explained.add(key);
    if (!stored.has(key)) lost(`${what} (${answer.acknowledged} saves acknowledged)`);
    else if (stored.get(key) !== answer.value) lost(`${what} holds ${stored.get(key)}, the last acknowledged was ${answer.value}`);
  }
  for (const r of ratings) {
    if (!explained.has(`${r.participant_id}:${r.item_id}:${r.dimension}`)) duplicated(`answer of participant row ${r.participant_id} on item ${r.item_id} ${r.dimension} that no save acknowledged`);
  }
  return v;
}

/** Every invariant the run must hold; empty when it held them all. */
export function failedInvariants(study: LoadStudy, result: StudyLoadResult, v: StudyVerification): string[] {
  const failed: string[] = [];
  const { participants } = result.ledger;
  const finished = [...participants.values()].filter((p) => p.finished).length;
  const answers = study.participants * study.itemsPerParticipant * study.dimensions.length;
  if (participants.size !== study.participants) failed.push(`${participants.size} of ${study.participants} participants joined`);
  if (finished !== study.participants) failed.push(`${finished} of ${study.participants} participants finished`);
  if (v.finishedRows !== study.participants) failed.push(`${v.finishedRows} of ${study.participants} participants are finished in the database`);
  if (result.ledger.answers.size !== answers) failed.push(`${result.ledger.answers.size} of ${answers} answers acknowledged`);
  if (result.serverErrors) failed.push(`server errors (5xx): ${result.serverErrors}`);
  if (result.refusals) failed.push(`refusals (4xx): ${result.refusals}`);
  if (result.unanswered) failed.push(`requests with no answer: ${result.unanswered}`);
  if (v.lost) failed.push(`lost: ${v.lost}`);
  if (v.duplicated) failed.push(`duplicated: ${v.duplicated}`);
  if (v.misassigned) failed.push(`overlap broken: ${v.misassigned}`);
  return [...failed, ...result.problems.slice(0, 20), ...v.problems.slice(0, 20)];
}

/** The budget: 95% of answers saved within this many milliseconds. */
export const SAVE_BUDGET_MS = 100;

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
/** The 95th percentile of the time an answer took to save. */
export const saveP95 = (result: StudyLoadResult) => percentile(sorted(result.latencies.save), 95);

const n = (x: number) => x.toLocaleString('en');
const ms = (x: number) => x.toLocaleString('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** The run's figures as Markdown tables: the totals, then the latency of each kind of request. */
export function reportTables(study: LoadStudy, plan: StudyLoadPlan, result: StudyLoadResult, v: StudyVerification): string {
  const seconds = result.loadMs / 1000;
  const save = sorted(result.latencies.save);
  const join = sorted(result.latencies.join);
  const totals = [
    `| participants | think time | items x dimensions | requests | wall time | throughput | save p50 / p95 / p99 / max ms | join p50 / p95 ms | double submits | changed answers | 5xx / 4xx | lost / duplicated | p95 save < ${SAVE_BUDGET_MS} ms |`,
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    `| ${study.participants} | ${thinkLabel(plan.thinkMs)} | ${study.itemsPerParticipant} x ${study.dimensions.length} | ${n(result.requests)} | ${seconds.toFixed(1)} s | ` +
      `${n(Math.round(result.requests / seconds))} req/s | ${[50, 95, 99].map((p) => ms(percentile(save, p))).join(' / ')} / ${ms(save.at(-1) ?? NaN)} | ` +
      `${ms(percentile(join, 50))} / ${ms(percentile(join, 95))} | ${n(result.doubleSubmits)} | ${n(result.changedAnswers)} | ${result.serverErrors} / ${result.refusals} | ` +
      `${v.lost} / ${v.duplicated} | ${saveP95(result) < SAVE_BUDGET_MS ? 'met' : 'missed'} |`,
  ];
  const latency = ['| request | count | p50 ms | p95 ms | p99 ms | max ms |', '| --- | --- | --- | --- | --- | --- |'];
  for (const [kind, label] of REQUEST_KINDS) {
    const xs = sorted(result.latencies[kind]);
    latency.push(`| ${label} | ${n(xs.length)} | ${ms(percentile(xs, 50))} | ${ms(percentile(xs, 95))} | ${ms(percentile(xs, 99))} | ${ms(xs.at(-1) ?? NaN)} |`);
  }
  const rows = `Verified: ${n(v.participantRows)} participants (${n(v.finishedRows)} finished), ${n(v.assignmentRows)} assignments ` +
    `(${study.itemsPerParticipant} per participant, ${study.participantsPerItem} per item over ${study.items} items), ${n(v.ratingRows)} ratings.`;
  return `${totals.join('\n')}\n\n${latency.join('\n')}\n\n${rows}`;
}
