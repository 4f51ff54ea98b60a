// Authoring load: many annotators at once claim a seed, autosave their drafts and judge entities, then pairs
// of editors of one assignment save the same version together. Every write the server acknowledges goes into
// a ledger, which is checked against the database afterwards: no acknowledged write lost, none applied twice.
// The benchmark drives it over HTTP; its test through the library.
import type pg from 'pg';
import { createCampaign, DEFAULT_GUIDELINES } from '../../lib/authoring/campaigns';
import { JUDGMENT_LABELS, type JudgmentLabel } from '../../lib/authoring/drafts';
import { Role } from '../../lib/auth/roles';
import { createUser } from '../../lib/auth/users';
import type { PrismaClient } from '../../lib/db/generated/client';
import { buildDemoCatalogue } from '../../lib/demo/catalogue';
import { seedDemo } from '../../lib/demo/seed';
import { mulberry32, type Rng } from '../../lib/random';
import { errorOf, type Answer } from './app-server';
import type { AuthoringClient, DraftBody } from './authoring-load-clients';
import { percentile, thinkLabel, thinkTime } from './measure';

export interface LoadAnnotator {
  index: number;
  id: number;
  email: string;
}

export interface LoadCampaign {
  kbId: number;
  campaignId: number;
  seeds: number;
  annotators: LoadAnnotator[];
  /** The knowledge base's entities, which annotators judge. */
  entityIds: number[];
}

/**
 * The demo data (as `skb serve --demo` loads it), `annotators` annotator accounts sharing `password`, and an
 * open campaign with k = 1 on the demo catalogue with at least 100 seeds, one for each annotator at least.
 */
export async function prepareLoadCampaign(pool: pg.Pool, prisma: PrismaClient, opts: { annotators: number; password: string }): Promise<LoadCampaign> {
  await seedDemo(pool, prisma, { password: opts.password });
  const { rows: [kb] } = await pool.query<{ id: number }>('SELECT id FROM knowledge_base WHERE slug = $1', [buildDemoCatalogue().slug]);
  const annotators: LoadAnnotator[] = [];
  // Password hashing is scrypt at 32 MiB a hash: a few at a time.
  for (let start = 0; start < opts.annotators; start += 4) {
    const batch = Array.from({ length: Math.min(4, opts.annotators - start) }, (_, i) => start + i);
    annotators.push(...await Promise.all(batch.map(async (index) => {
      const email = `annotator-${String(index + 1).padStart(3, '0')}@load.local`;
      const user = await createUser(prisma, { email, password: opts.password, role: Role.ANNOTATOR, name: `Load annotator ${index + 1}` });
      return { index, id: user.id, email };
    })));
  }
  const campaign = await createCampaign(pool, kb!.id, {
    name: 'Authoring load', guidelines: DEFAULT_GUIDELINES, annotatorsPerSeed: 1, leaseMinutes: 60, leakPolicy: 'warn',
    querySet: 'authoring-load', annotatorIds: annotators.map((a) => a.id), open: true,
  }, { mode: 'random', count: Math.max(100, opts.annotators), seed: 20261123 }, null);
  if (campaign.seeds < opts.annotators) throw new Error(`Only ${campaign.seeds} seeds for ${opts.annotators} annotators`);
  const entities = await pool.query<{ id: number }>('SELECT id FROM entity WHERE kb_id = $1 ORDER BY id', [kb!.id]);
  return { kbId: kb!.id, campaignId: campaign.id, seeds: campaign.seeds, annotators, entityIds: entities.rows.map((r) => r.id) };
}

export interface LoadPlan {
  /** Draft saves per annotator, each followed by `judgmentsPerRound` judgments. */
  rounds: number;
  judgmentsPerRound: number;
  /** Assignments whose draft, and one of whose judgments, two editors save at once with the same version. */
  contentionPairs: number;
  /** Mean pause of an annotator between requests (jittered ±50%); 0 sends them back to back. */
  thinkMs: number;
}

export type RequestKind = 'claim' | 'draft' | 'judgment';

interface JudgmentEntry {
  assignmentId: number;
  entityId: number;
  saves: number;
  label: JudgmentLabel;
}

/** Every write the server acknowledged (2xx), as the annotators' editors saw them. */
export interface Ledger {
  /** Annotator id to the assignment their claim returned. */
  assignments: Map<number, number>;
  /** By assignment id: acknowledged saves and the text of the last one. */
  drafts: Map<number, { saves: number; text: string }>;
  /** By `assignment:entity`. */
  judgments: Map<string, JudgmentEntry>;
}

export interface LoadResult {
  ledger: Ledger;
  /** Milliseconds per request of the load phase, by kind. */
  latencies: Record<RequestKind, number[]>;
  loadRequests: number;
  loadMs: number;
  /** The losers of the contention pairs. */
  expected409: number;
  /** 409s where one editor wrote alone. */
  unexpected409: number;
  serverErrors: number;
  /** Other refusals (4xx) and requests that got no answer. */
  otherFailures: number;
  contentionPairs: number;
  /** Pairs where exactly one editor won and the other got 409. */
  pairsWithOneWinner: number;
  problems: string[];
}

const judgmentKey = (assignmentId: number, entityId: number) => `${assignmentId}:${entityId}`;

/** What an annotator writes in round `round`: unique per annotator and round, so the stored text names its save. */
export const draftText = (annotator: number, round: number) =>
  `Annotator ${annotator + 1}, round ${round + 1}: which products from the same brand have a review that praises the battery?`;

function versionOf(body: unknown): number | null {
  const v = (body as { version?: unknown } | null)?.version;
  return typeof v === 'number' ? v : null;
}

function assignmentOf(body: unknown): { id: number; entityId: number } | null {
  const a = (body as { assignment?: { id?: unknown; entityId?: unknown } | null } | null)?.assignment;
  return a && typeof a.id === 'number' && typeof a.entityId === 'number' ? { id: a.id, entityId: a.entityId } : null;
}

function pickDistinct<T>(rng: Rng, items: readonly T[], k: number): T[] {
  const pool = [...items];
  for (let i = 0; i < k && i < pool.length; i++) {
    const j = i + Math.floor(rng() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, k);
}

async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  }));
  return out;
}

class LoadRun {
  readonly ledger: Ledger = { assignments: new Map(), drafts: new Map(), judgments: new Map() };
  readonly result: LoadResult = {
    ledger: this.ledger, latencies: { claim: [], draft: [], judgment: [] }, loadRequests: 0, loadMs: 0,
    expected409: 0, unexpected409: 0, serverErrors: 0, otherFailures: 0, contentionPairs: 0, pairsWithOneWinner: 0, problems: [],
  };

  constructor(private readonly onAnswer: (kind: RequestKind) => void) {}

  /** Times one request of the load phase. */
  async send(kind: RequestKind, request: () => Promise<Answer>): Promise<Answer> {
    const started = performance.now();
    const answer = await request();
    this.result.latencies[kind].push(performance.now() - started);
    this.result.loadRequests += 1;
    this.onAnswer(kind);
    return answer;
  }

  /** Counts a refusal or failure; a 409 is expected only where two editors raced. */
  refused(answer: Answer, what: string, raced: boolean): void {
    if (answer.status === 409 && raced) return;
    if (answer.status === 409) this.result.unexpected409 += 1;
    else if (answer.status >= 500) this.result.serverErrors += 1;
    else this.result.otherFailures += 1;
    this.result.problems.push(`${what}: answered ${answer.status || 'nothing'} ${errorOf(answer)}`.trim());
  }

  /** The version an acknowledged write returned, checked against the one the editor expects next. */
  acknowledged(answer: Answer, expected: number, what: string): number {
    const version = versionOf(answer.body);
    if (version !== expected) this.result.problems.push(`${what}: acknowledged with version ${version}, expected ${expected}`);
    return version ?? expected;
  }

  recordDraft(assignmentId: number, text: string): void {
    const entry = this.ledger.drafts.get(assignmentId) ?? { saves: 0, text: '' };
    this.ledger.drafts.set(assignmentId, { saves: entry.saves + 1, text });
  }

  recordJudgment(assignmentId: number, entityId: number, label: JudgmentLabel): void {
    const key = judgmentKey(assignmentId, entityId);
    const saves = (this.ledger.judgments.get(key)?.saves ?? 0) + 1;
    this.ledger.judgments.set(key, { assignmentId, entityId, saves, label });
  }
}

/**
 * One annotator's session, one request at a time as an editor sends them: claim, then per round a draft save
 * and judgments of entities drawn from a small set of their own (so some are judged again, versions rising).
 * Each write names the version the previous acknowledgement returned. A refusal ends the session: with one
 * writer it is an error, and the editor would have to reload before writing again.
 */
async function annotate(run: LoadRun, campaign: LoadCampaign, annotator: LoadAnnotator, client: AuthoringClient, plan: LoadPlan): Promise<void> {
  const who = `annotator ${annotator.index + 1}`;
  const claim = await run.send('claim', () => client.claim(campaign.campaignId));
  const assignment = claim.status === 200 ? assignmentOf(claim.body) : null;
  if (!assignment) {
    if (claim.status === 200) run.result.problems.push(`${who}: claim returned no seed`);
    else run.refused(claim, `${who} claim`, false);
    return;
  }
  run.ledger.assignments.set(annotator.id, assignment.id);
  const rng = mulberry32(20261123 + annotator.index);
  const own = pickDistinct(rng, campaign.entityIds, plan.judgmentsPerRound * 3);
  // A stream of its own, so that pacing changes when requests go, not what they write.
  const think = thinkTime(plan.thinkMs, 1_000_000 + annotator.index);
  const judged = new Map<number, number>();
  let draftVersion = 0;
  for (let round = 0; round < plan.rounds; round++) {
    const text = draftText(annotator.index, round);
    const body: DraftBody = { text, textSpans: [{ field: 'description', start: 0, end: 12, quote: 'battery life' }], version: draftVersion };
    await think();
    const saved = await run.send('draft', () => client.saveDraft(assignment.id, body));
    if (saved.status !== 200) return run.refused(saved, `${who} draft round ${round + 1}`, false);
    run.recordDraft(assignment.id, text);
    draftVersion = run.acknowledged(saved, draftVersion + 1, `${who} draft round ${round + 1}`);

    for (const [j, entityId] of pickDistinct(rng, own, plan.judgmentsPerRound).entries()) {
      const label = JUDGMENT_LABELS[(round + j) % JUDGMENT_LABELS.length]!;
      const seen = judged.get(entityId) ?? 0;
      // Evidence must exist in the knowledge base: a passage of the judged entity's own document.
      const evidence = label === 'relevant' ? [{ kind: 'span' as const, entity: entityId, field: 'description', start: 0, end: 12, quote: 'battery life' }] : undefined;
      await think();
      const answer = await run.send('judgment', () => client.judge(assignment.id, { entityId, label, evidence, version: seen }));
      if (answer.status !== 200) return run.refused(answer, `${who} judgment of ${entityId}`, false);
      run.recordJudgment(assignment.id, entityId, label);
      judged.set(entityId, run.acknowledged(answer, seen + 1, `${who} judgment of ${entityId}`));
    }
  }
}

const both = <T,>(f: (editor: 0 | 1) => T): [T, T] => [f(0), f(1)];

/** Two editors write the same version at once; exactly one must land, the other must get 409. */
async function race(run: LoadRun, what: string, writes: [() => Promise<Answer>, () => Promise<Answer>], expected: number, record: (winner: 0 | 1) => void): Promise<void> {
  run.result.contentionPairs += 1;
  const answers = await Promise.all(writes.map((w) => w()));
  const wins = answers.flatMap((a, i) => (a.status === 200 ? [i as 0 | 1] : []));
  for (const i of wins) {
    record(i);
    run.acknowledged(answers[i]!, expected, `${what}, editor ${i + 1}`);
  }
  const conflicts = answers.filter((a) => a.status === 409).length;
  for (const a of answers.filter((x) => x.status !== 200)) run.refused(a, what, wins.length === 1);
  if (wins.length === 1 && conflicts === 1) {
    run.result.pairsWithOneWinner += 1;
    run.result.expected409 += 1;
  } else {
    run.result.problems.push(`${what}: ${wins.length} of 2 same-version writes landed, ${conflicts} got 409`);
  }
}

/** A second editor for the first `contentionPairs` assignments; each pair races a draft save and a judgment. */
async function contend(run: LoadRun, campaign: LoadCampaign, clients: AuthoringClient[], connect: (a: LoadAnnotator) => Promise<AuthoringClient>, pairs: number): Promise<void> {
  const racers = campaign.annotators.filter((a) => run.ledger.assignments.has(a.id)).slice(0, pairs);
  const seconds = await mapLimited(racers, 10, connect);
  await Promise.all(racers.map(async (annotator, i) => {
    const assignmentId = run.ledger.assignments.get(annotator.id)!;
    const editors = [clients[annotator.index]!, seconds[i]!] as const;
    const draft = run.ledger.drafts.get(assignmentId)?.saves ?? 0;
    const texts = both((e) => `${draftText(annotator.index, draft)} (editor ${e + 1})`);
    const judgment = [...run.ledger.judgments.values()].find((j) => j.assignmentId === assignmentId);
    const entityId = judgment?.entityId ?? campaign.entityIds[0]!;
    const seen = judgment?.saves ?? 0;
    const labels = ['relevant', 'not_relevant'] as const;
    await Promise.all([
      race(run, `annotator ${annotator.index + 1} draft race`,
        both((e) => () => editors[e].saveDraft(assignmentId, { text: texts[e], version: draft })),
        draft + 1, (winner) => run.recordDraft(assignmentId, texts[winner])),
      race(run, `annotator ${annotator.index + 1} judgment race`,
        both((e) => () => editors[e].judge(assignmentId, { entityId, label: labels[e], version: seen })),
        seen + 1, (winner) => run.recordJudgment(assignmentId, entityId, labels[winner])),
    ]);
  }));
}

/**
 * Connects every annotator (not timed), runs all their sessions at once (timed), then the contention pairs.
 * `onAnswer` is called after each request of the load phase, for progress.
 */
export async function runAuthoringLoad(campaign: LoadCampaign, connect: (a: LoadAnnotator) => Promise<AuthoringClient>, plan: LoadPlan, onAnswer: (kind: RequestKind) => void = () => {}): Promise<LoadResult> {
  const run = new LoadRun(onAnswer);
  const clients = await mapLimited(campaign.annotators, 10, connect);
  const started = performance.now();
  await Promise.all(campaign.annotators.map((a) => annotate(run, campaign, a, clients[a.index]!, plan)));
  run.result.loadMs = performance.now() - started;
  await contend(run, campaign, clients, connect, plan.contentionPairs);
  return run.result;
}

/** Requests the load phase sends when nothing fails. */
export const plannedRequests = (annotators: number, plan: LoadPlan) => annotators * (1 + plan.rounds * (1 + plan.judgmentsPerRound));

export interface Verification {
  assignmentRows: number;
  draftRows: number;
  judgmentRows: number;
  /** Rows of acknowledged writes that are missing, behind (lower version) or hold another write's content. */
  lost: number;
  /** Rows nobody's acknowledged write explains, versions ahead of the acknowledged writes, seeds held twice. */
  duplicated: number;
  problems: string[];
}

/** Compares the campaign's rows with the ledger. */
export async function verifyAuthoringLoad(pool: pg.Pool, campaignId: number, ledger: Ledger): Promise<Verification> {
  const v: Verification = { assignmentRows: 0, draftRows: 0, judgmentRows: 0, lost: 0, duplicated: 0, problems: [] };
  const lost = (p: string) => { v.lost += 1; v.problems.push(`lost: ${p}`); };
  const duplicated = (p: string) => { v.duplicated += 1; v.problems.push(`duplicated: ${p}`); };

  const assignments = (await pool.query<{ id: number; annotator_id: number; entity_id: number }>(
    'SELECT id, annotator_id, entity_id FROM assignment WHERE campaign_id = $1', [campaignId])).rows;
  v.assignmentRows = assignments.length;
  const claimed = new Set(ledger.assignments.values());
  for (const [annotator, id] of ledger.assignments) {
    if (!assignments.some((a) => a.id === id && a.annotator_id === annotator)) lost(`assignment ${id} of user ${annotator}`);
  }
  for (const a of assignments.filter((x) => !claimed.has(x.id))) duplicated(`assignment ${a.id} of user ${a.annotator_id} that no claim returned`);
  const holders = new Map<number, number>();
  for (const a of assignments) holders.set(a.entity_id, (holders.get(a.entity_id) ?? 0) + 1);
  for (const [entity, n] of holders) if (n > 1) duplicated(`seed ${entity} held by ${n} assignments (k = 1)`);

  const drafts = (await pool.query<{ assignment_id: number; text: string; version: number }>(
    `SELECT d.assignment_id, d.text, d.version FROM query_draft d JOIN assignment a ON a.id = d.assignment_id WHERE a.campaign_id = $1`, [campaignId])).rows;
  v.draftRows = drafts.length;
  const draftOf = new Map(drafts.map((d) => [d.assignment_id, d]));
  for (const [id, expected] of ledger.drafts) {
    const row = draftOf.get(id);
    if (!row) lost(`draft of assignment ${id} (${expected.saves} saves acknowledged)`);
    else if (row.version < expected.saves) lost(`draft of assignment ${id} at version ${row.version} after ${expected.saves} acknowledged saves`);
    else if (row.version > expected.saves) duplicated(`draft of assignment ${id} at version ${row.version} after ${expected.saves} acknowledged saves`);
    else if (row.text !== expected.text) lost(`draft of assignment ${id} holds "${row.text}", the last acknowledged save was "${expected.text}"`);
  }
  for (const d of drafts.filter((x) => !ledger.drafts.has(x.assignment_id))) duplicated(`draft of assignment ${d.assignment_id} that no save acknowledged`);

  const judgments = (await pool.query<{ assignment_id: number; entity_id: number; label: string; version: number }>(
    `SELECT j.assignment_id, j.entity_id, j.label, j.version FROM judgment j JOIN assignment a ON a.id = j.assignment_id WHERE a.campaign_id = $1`, [campaignId])).rows;
  v.judgmentRows = judgments.length;
  const judgmentOf = new Map(judgments.map((j) => [judgmentKey(j.assignment_id, j.entity_id), j]));
  for (const [key, expected] of ledger.judgments) {
    const row = judgmentOf.get(key);
    const what = `judgment of entity ${expected.entityId} in assignment ${expected.assignmentId}`;
    if (!row) lost(`${what} (${expected.saves} acknowledged)`);
    else if (row.version < expected.saves) lost(`${what} at version ${row.version} after ${expected.saves} acknowledged`);
    else if (row.version > expected.saves) duplicated(`${what} at version ${row.version} after ${expected.saves} acknowledged`);
    else if (row.label !== expected.label) lost(`${what} is "${row.label}", the last acknowledged was "${expected.label}"`);
  }
  for (const j of judgments.filter((x) => !ledger.judgments.has(judgmentKey(x.assignment_id, x.entity_id)))) {
    duplicated(`judgment of entity ${j.entity_id} in assignment ${j.assignment_id} that nothing acknowledged`);
  }
  return v;
}

/** Every invariant the run must hold; empty when it held them all. */
export function failedInvariants(annotators: number, result: LoadResult, verification: Verification): string[] {
  const failed: string[] = [];
  if (result.ledger.assignments.size !== annotators) failed.push(`${result.ledger.assignments.size} of ${annotators} annotators got a seed`);
  if (result.unexpected409) failed.push(`unexpected 409s: ${result.unexpected409}`);
  if (result.serverErrors) failed.push(`server errors (5xx): ${result.serverErrors}`);
  if (result.otherFailures) failed.push(`other refusals or unanswered requests: ${result.otherFailures}`);
  if (result.pairsWithOneWinner !== result.contentionPairs) failed.push(`${result.contentionPairs - result.pairsWithOneWinner} of ${result.contentionPairs} races without exactly one winner`);
  if (verification.lost) failed.push(`lost rows: ${verification.lost}`);
  if (verification.duplicated) failed.push(`duplicated rows: ${verification.duplicated}`);
  return [...failed, ...result.problems.slice(0, 20), ...verification.problems.slice(0, 20)];
}

const n = (x: number) => x.toLocaleString('en');
const count = (x: number, noun: string) => `${n(x)} ${noun}${x === 1 ? '' : 's'}`;
const ms = (x: number) => x.toLocaleString('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** The run's figures as Markdown tables: the totals, then the latency of each kind of request. */
export function reportTables(annotators: number, plan: LoadPlan, result: LoadResult, verification: Verification): string {
  const seconds = result.loadMs / 1000;
  const totals = [
    '| annotators | think time | rounds x judgments | requests | wall time | throughput | 409 expected / unexpected | 5xx | rows verified | lost / duplicated |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    `| ${annotators} | ${thinkLabel(plan.thinkMs)} | ${plan.rounds} x ${plan.judgmentsPerRound} | ${n(result.loadRequests)} | ${seconds.toFixed(1)} s | ${n(Math.round(result.loadRequests / seconds))} req/s | ` +
      `${result.expected409} / ${result.unexpected409} | ${result.serverErrors} | ${count(verification.assignmentRows, 'assignment')}, ${count(verification.draftRows, 'draft')}, ${count(verification.judgmentRows, 'judgment')} | ` +
      `${verification.lost} / ${verification.duplicated} |`,
  ];
  const latency = ['| request | count | p50 ms | p95 ms | p99 ms | max ms |', '| --- | --- | --- | --- | --- | --- |'];
  for (const [kind, label] of [['claim', 'claim a seed'], ['draft', 'save draft'], ['judgment', 'judge entity']] as const) {
    const sorted = [...result.latencies[kind]].sort((a, b) => a - b);
    latency.push(`| ${label} | ${n(sorted.length)} | ${ms(percentile(sorted, 50))} | ${ms(percentile(sorted, 95))} | ${ms(percentile(sorted, 99))} | ${ms(sorted[sorted.length - 1] ?? NaN)} |`);
  }
  return `${totals.join('\n')}\n\n${latency.join('\n')}`;
}
