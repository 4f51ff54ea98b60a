import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign, DEFAULT_GUIDELINES } from '../../lib/authoring/campaigns';
import { Role } from '../../lib/auth/roles';
import { createUser } from '../../lib/auth/users';
import { prepareLoadStudy, type LoadStudy } from '../../scripts/bench/study-load-run';
import { db, openAppDatabase, pool } from '../support/app-database';
import type { RaceResult, RaceTask } from '../support/quota-racer';
import type { TestDatabase } from '../support/test-database';

// Two app processes (`skb serve --workers 2`) share one database: whatever the timing, a study's items are
// never given to more participants than its overlap, nor a campaign's seeds to more annotators than k. Two
// real processes, each with its own connection pool, race through the library calls behind the routes.
const RACER = path.join(import.meta.dirname, '..', 'support', 'quota-racer.ts');
// 8 participants x 10 items fill the 40 demo queries twice over (2 per item); 3 times as many join.
const PLACES = { participants: 8, itemsPerParticipant: 10 };
const JOINS_PER_PROCESS = 12;
// 5 seeds with 2 slots each; 16 annotators claim one each.
const SEEDS = 5;
const K = 2;
const ANNOTATORS = 16;

let testDb: TestDatabase;
let study: LoadStudy;
let campaignId: number;
let results: RaceResult[];

interface Racer { ready: Promise<void>; go(): void; result: Promise<RaceResult> }

function startRacer(task: RaceTask): Racer {
  const child = spawn(process.execPath, ['--import', 'tsx', RACER, JSON.stringify(task)], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, SKB_STUDY_JOINS_PER_LINK: '1000', SKB_STUDY_JOINS_PER_ADDRESS: '1000' },
  });
  const lines: string[] = [];
  let errors = '';
  child.stderr!.on('data', (b: Buffer) => { errors += b.toString(); });
  let ready!: () => void;
  const readyP = new Promise<void>((resolve) => { ready = resolve; });
  readline.createInterface({ input: child.stdout! }).on('line', (line) => (line === 'ready' ? ready() : lines.push(line)));
  const result = new Promise<RaceResult>((resolve, reject) => child.once('exit', (code) => {
    if (code === 0) resolve(JSON.parse(lines.at(-1)!) as RaceResult);
    else reject(new Error(`racer exited with ${code}: ${errors.slice(-2000)}`));
  }));
  result.catch(() => ready()); // a racer that dies before "ready" must not leave the test waiting
  return { ready: readyP, go: () => child.stdin!.write('go\n'), result };
}

beforeAll(async () => {
  testDb = await openAppDatabase();
  study = await prepareLoadStudy(pool(), db(), PLACES);
  const { rows: [kb] } = await pool().query<{ id: number }>('SELECT kb_id AS id FROM study WHERE id = $1', [study.studyId]);
  const annotators: number[] = [];
  for (let i = 0; i < ANNOTATORS; i++) {
    annotators.push((await createUser(db(), { email: `racer-${i}@quota.local`, password: 'a long password', role: Role.ANNOTATOR })).id);
  }
  campaignId = (await createCampaign(pool(), kb!.id, {
    name: 'Quota race', guidelines: DEFAULT_GUIDELINES, annotatorsPerSeed: K, leaseMinutes: 60, leakPolicy: 'warn',
    querySet: 'quota-race', annotatorIds: annotators, open: true,
  }, { mode: 'random', count: SEEDS, seed: 7 }, null)).id;

  const half = ANNOTATORS / 2;
  const racers = [0, 1].map((p) => startRacer({
    linkToken: study.linkToken, joins: JOINS_PER_PROCESS, addressPrefix: `10.0.${p}`,
    campaignId, annotatorIds: annotators.slice(p * half, (p + 1) * half),
  }));
  await Promise.all(racers.map((r) => r.ready));
  for (const r of racers) r.go();
  results = await Promise.all(racers.map((r) => r.result));
}, 180_000);
afterAll(async () => testDb?.drop());

describe('two app processes on one database', () => {
  it('never give a study item to more participants than its overlap, and fill every place', async () => {
    const given = results.flatMap((r) => r.items);
    expect(given).toHaveLength(2 * JOINS_PER_PROCESS);
    // Places run out after 8 full starts: the rest find the study full (no partial share of items).
    expect(given.filter((items) => items.length === PLACES.itemsPerParticipant)).toHaveLength(PLACES.participants);
    expect(given.filter((items) => items.length === 0)).toHaveLength(2 * JOINS_PER_PROCESS - PLACES.participants);
    for (const items of given) expect(new Set(items).size).toBe(items.length);

    const { rows } = await pool().query<{ n: number }>(
      `SELECT count(a.participant_id)::int AS n FROM study_item i LEFT JOIN study_assignment a ON a.item_id = i.id
        WHERE i.study_id = $1 GROUP BY i.id`, [study.studyId]);
    expect(rows).toHaveLength(study.items);
    expect(rows.every((r) => r.n === study.participantsPerItem)).toBe(true);
  });

  it('never lease a campaign seed to more annotators than k', async () => {
    const seeds = results.flatMap((r) => r.seeds);
    expect(seeds).toHaveLength(ANNOTATORS);
    expect(seeds.filter((s) => s !== null)).toHaveLength(SEEDS * K);
    const { rows } = await pool().query<{ entity_id: number; n: number; slots: number }>(
      `SELECT entity_id, count(*)::int AS n, count(DISTINCT slot)::int AS slots FROM assignment
        WHERE campaign_id = $1 AND status IN ('ACTIVE', 'SUBMITTED', 'RETURNED', 'APPROVED') GROUP BY entity_id`, [campaignId]);
    expect(rows).toHaveLength(SEEDS);
    expect(rows.every((r) => r.n === K && r.slots === K)).toBe(true);
  });
});
