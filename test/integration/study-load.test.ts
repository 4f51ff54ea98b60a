import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../lib/studies/tokens';
import { libraryStudyClient } from '../../scripts/bench/study-load-clients';
import {
  answerValue, failedInvariants, plannedRequests, prepareLoadStudy, runStudyLoad, verifyStudyLoad,
  type LoadStudy, type StudyLoadPlan, type StudyLoadResult,
} from '../../scripts/bench/study-load-run';
import { db, openAppDatabase, pool } from '../support/app-database';
import type { TestDatabase } from '../support/test-database';

// The study load benchmark's logic on a small scale, through the library instead of HTTP: 20 participants of
// 10 items each over the 40 demo queries, so every item has 5 participants.
const PARTICIPANTS = 20;
const plan: StudyLoadPlan = { thinkMs: 0, doubleShare: 0.1, changeShare: 0.1, seed: 7 };

let testDb: TestDatabase;
let study: LoadStudy;
let result: StudyLoadResult;

beforeAll(async () => {
  testDb = await openAppDatabase();
  study = await prepareLoadStudy(pool(), db(), { participants: PARTICIPANTS, itemsPerParticipant: 10 });
  result = await runStudyLoad(study, libraryStudyClient(pool()), plan);
});
afterAll(async () => testDb.drop());

const idOf = async (index: number) => (await pool().query<{ id: number }>(
  'SELECT id FROM study_participant WHERE token_hash = $1', [hashToken(result.ledger.participants.get(index)!.token)])).rows[0]!.id;

describe('study load', () => {
  it('sets up an open study whose overlap uses every place', () => {
    expect(study).toMatchObject({ participants: PARTICIPANTS, items: 40, itemsPerParticipant: 10, participantsPerItem: 5 });
    expect(study.dimensions.map((d) => d.key)).toEqual(['naturalness', 'diversity', 'practicality']);
  });

  it('refuses a study whose places do not share out evenly', async () => {
    await expect(prepareLoadStudy(pool(), db(), { participants: 7, itemsPerParticipant: 10 })).rejects.toThrow(/do not share out evenly/);
  });

  it('stores every acknowledged answer once with its last value, and shares the items out with the overlap asked for', async () => {
    expect(result.requests).toBe(plannedRequests(study, plan));
    expect(result.doubleSubmits).toBeGreaterThan(0);
    expect(result.changedAnswers).toBeGreaterThan(0);
    expect(result.latencies.save).toHaveLength(PARTICIPANTS * 10 * 3 + result.doubleSubmits + result.changedAnswers);
    expect(result.latencies.join).toHaveLength(PARTICIPANTS);

    const verification = await verifyStudyLoad(pool(), study, result.ledger);
    expect(failedInvariants(study, result, verification)).toEqual([]);
    expect(verification).toMatchObject({
      participantRows: PARTICIPANTS, finishedRows: PARTICIPANTS, assignmentRows: PARTICIPANTS * 10, ratingRows: PARTICIPANTS * 10 * 3,
      lost: 0, duplicated: 0, misassigned: 0,
    });

    // Every save was acknowledged (double submits twice), and each changed answer holds its second value.
    const answers = [...result.ledger.answers.values()];
    expect(answers.reduce((sum, a) => sum + a.acknowledged, 0)).toBe(result.latencies.save.length);
    const dimension = (key: string) => study.dimensions.findIndex((d) => d.key === key);
    const changed = answers.filter((a) => a.value !== answerValue(study.dimensions[dimension(a.dimension)]!, a.index, a.itemId, dimension(a.dimension), false));
    expect(changed).toHaveLength(result.changedAnswers);
    const { rows } = await pool().query('SELECT value FROM rating WHERE participant_id = $1 AND item_id = $2 AND dimension = $3', [await idOf(changed[0]!.index), changed[0]!.itemId, changed[0]!.dimension]);
    expect(rows).toEqual([{ value: changed[0]!.value }]);
  });

  it('reports answers lost, changed or added, and a broken overlap', async () => {
    const [first, second] = [...result.ledger.answers.values()].filter((a) => a.index !== PARTICIPANTS - 1);
    await pool().query('DELETE FROM rating WHERE participant_id = $1 AND item_id = $2 AND dimension = $3', [await idOf(first!.index), first!.itemId, first!.dimension]);
    await pool().query('UPDATE rating SET value = value % 5 + 1 WHERE participant_id = $1 AND item_id = $2 AND dimension = $3', [await idOf(second!.index), second!.itemId, second!.dimension]);
    const last = result.ledger.participants.get(PARTICIPANTS - 1)!;
    const lastId = await idOf(PARTICIPANTS - 1);
    await pool().query(`INSERT INTO rating (participant_id, item_id, dimension, value) VALUES ($1, $2, 'clarity', 3)`, [lastId, last.items[0]]);
    // One participant loses an item (and its three answers with it).
    await pool().query('DELETE FROM study_assignment WHERE participant_id = $1 AND item_id = $2', [lastId, last.items[1]]);
    await pool().query('UPDATE study_participant SET finished_at = NULL WHERE id = $1', [lastId]);

    const verification = await verifyStudyLoad(pool(), study, result.ledger);
    expect(verification).toMatchObject({ lost: 2 + 3 + 1, duplicated: 1, misassigned: 3 });
    expect(verification.problems).toEqual(expect.arrayContaining([
      `lost: answer of participant ${first!.index + 1} on item ${first!.itemId} ${first!.dimension} (${first!.acknowledged} saves acknowledged)`,
      expect.stringMatching(new RegExp(`^lost: answer of participant ${second!.index + 1} on item ${second!.itemId} ${second!.dimension} holds \\d, the last acknowledged was ${second!.value}$`)),
      `duplicated: answer of participant row ${lastId} on item ${last.items[0]} clarity that no save acknowledged`,
      `lost: finish of participant ${PARTICIPANTS}`,
      `misassigned: participant row ${lastId} holds 9 items, not 10`,
      `misassigned: item ${last.items[1]} has 4 participants, not 5`,
      expect.stringMatching(new RegExp(`^misassigned: participant ${PARTICIPANTS} was shown items`)),
    ]));
    expect(failedInvariants(study, result, verification)).toEqual(expect.arrayContaining([
      `${PARTICIPANTS - 1} of ${PARTICIPANTS} participants are finished in the database`, 'lost: 6', 'duplicated: 1', 'overlap broken: 3',
    ]));
  });
});
