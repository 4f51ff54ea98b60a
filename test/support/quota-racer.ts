// One app process's share of a race for a study's places and a campaign's seed slots, for the test that two
// processes on one database never hand out more than the quota:
//   DATABASE_URL=... node --import tsx test/support/quota-racer.ts '<json task>'
// It connects, says "ready", waits for a line on stdin (so that both processes start together), then makes
// every call at once through the library functions the routes call, and prints what each answered as JSON.
import readline from 'node:readline';
import { claimNext } from '../../lib/authoring/assignments';
import { closeDb, pool } from '../../lib/db/client';
import { joinByStudyLink, participantByToken } from '../../lib/studies/participants';
import { startParticipation } from '../../lib/studies/participate';

export interface RaceTask {
  /** Study link to join through, and how many participants join (each from an address of their own). */
  linkToken: string;
  joins: number;
  addressPrefix: string;
  /** Campaign whose seeds these annotators claim, one claim each. */
  campaignId: number;
  annotatorIds: number[];
}

export interface RaceResult {
  /** Per participant who joined, the items their start gave them. */
  items: number[][];
  /** Per annotator, the seed their claim leased, or null when none was left. */
  seeds: (number | null)[];
}

const task = JSON.parse(process.argv[2]!) as RaceTask;
// Open the pool's connections before the start, so that the race is between the calls, not the connects.
await Promise.all(Array.from({ length: 10 }, () => pool().query('SELECT 1')));
console.log('ready');
const stdin = readline.createInterface({ input: process.stdin });
await new Promise<void>((resolve) => stdin.once('line', () => resolve()));
stdin.close();

const join = async (n: number) => {
  const { token } = await joinByStudyLink(pool(), task.linkToken, `${task.addressPrefix}.${n}`);
  const view = await startParticipation(pool(), await participantByToken(pool(), token));
  return view.items.map((i) => i.itemId);
};
const [items, seeds] = await Promise.all([
  Promise.all(Array.from({ length: task.joins }, (_, n) => join(n))),
  Promise.all(task.annotatorIds.map(async (id) => (await claimNext(pool(), task.campaignId, id))?.entityId ?? null)),
]);
const result: RaceResult = { items, seeds };
console.log(JSON.stringify(result));
await closeDb();
