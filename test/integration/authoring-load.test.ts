import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryClient } from '../../scripts/bench/authoring-load-clients';
import {
  draftText, failedInvariants, plannedRequests, prepareLoadCampaign, runAuthoringLoad, verifyAuthoringLoad,
  type LoadCampaign, type LoadPlan, type LoadResult,
} from '../../scripts/bench/authoring-load-run';
import { db, openAppDatabase, pool } from '../support/app-database';
import type { TestDatabase } from '../support/test-database';

// The authoring load benchmark's logic on a small scale, through the library instead of HTTP.
const ANNOTATORS = 20;
const plan: LoadPlan = { rounds: 5, judgmentsPerRound: 3, contentionPairs: 5, thinkMs: 0 };

let testDb: TestDatabase;
let campaign: LoadCampaign;
let result: LoadResult;

beforeAll(async () => {
  testDb = await openAppDatabase();
  campaign = await prepareLoadCampaign(pool(), db(), { annotators: ANNOTATORS, password: 'load test password' });
  result = await runAuthoringLoad(campaign, async (a) => libraryClient(pool(), a.id), plan);
});
afterAll(async () => testDb.drop());

describe('authoring load', () => {
  it('sets up a k = 1 campaign with a seed for every annotator', () => {
    expect(campaign.annotators).toHaveLength(ANNOTATORS);
    expect(campaign.seeds).toBeGreaterThanOrEqual(100);
    expect(campaign.entityIds.length).toBeGreaterThan(plan.judgmentsPerRound * 3);
  });

  it('loses and duplicates nothing under concurrent annotators, and races have exactly one winner', async () => {
    expect(result.loadRequests).toBe(plannedRequests(ANNOTATORS, plan));
    expect(result.latencies.draft).toHaveLength(ANNOTATORS * plan.rounds);
    expect(result.latencies.judgment).toHaveLength(ANNOTATORS * plan.rounds * plan.judgmentsPerRound);
    expect(result.contentionPairs).toBe(2 * plan.contentionPairs);
    expect(result.pairsWithOneWinner).toBe(2 * plan.contentionPairs);
    expect(result.expected409).toBe(2 * plan.contentionPairs);
    expect(result.unexpected409).toBe(0);

    const verification = await verifyAuthoringLoad(pool(), campaign.campaignId, result.ledger);
    expect(failedInvariants(ANNOTATORS, result, verification)).toEqual([]);
    expect(verification).toMatchObject({ assignmentRows: ANNOTATORS, draftRows: ANNOTATORS, judgmentRows: result.ledger.judgments.size, lost: 0, duplicated: 0 });

    // Each draft went through every round, plus one more for the assignments that raced.
    const saves = [...result.ledger.drafts.values()].map((d) => d.saves).sort((a, b) => a - b);
    expect(saves).toEqual([...Array(ANNOTATORS - plan.contentionPairs).fill(plan.rounds), ...Array(plan.contentionPairs).fill(plan.rounds + 1)]);
    const judgedAgain = [...result.ledger.judgments.values()].filter((j) => j.saves > 1);
    expect(judgedAgain.length).toBeGreaterThan(0);
    const { rows } = await pool().query<{ text: string }>(
      'SELECT d.text FROM query_draft d JOIN assignment a ON a.id = d.assignment_id WHERE a.annotator_id = $1', [campaign.annotators.at(-1)!.id]);
    expect(rows).toEqual([{ text: draftText(ANNOTATORS - 1, plan.rounds - 1) }]);
  });

  it('reports rows that were lost, behind or written twice', async () => {
    const [first, second] = [...result.ledger.drafts.keys()];
    const judgment = [...result.ledger.judgments.values()][0]!;
    await pool().query('UPDATE query_draft SET version = version + 1 WHERE assignment_id = $1', [first]);
    await pool().query(`UPDATE query_draft SET text = 'an older text' WHERE assignment_id = $1`, [second]);
    await pool().query('DELETE FROM judgment WHERE assignment_id = $1 AND entity_id = $2', [judgment.assignmentId, judgment.entityId]);

    const verification = await verifyAuthoringLoad(pool(), campaign.campaignId, result.ledger);
    expect(verification).toMatchObject({ lost: 2, duplicated: 1 });
    expect(verification.problems).toEqual(expect.arrayContaining([
      expect.stringMatching(new RegExp(`^duplicated: draft of assignment ${first} at version`)),
      expect.stringMatching(new RegExp(`^lost: draft of assignment ${second} holds "an older text"`)),
      expect.stringMatching(new RegExp(`^lost: judgment of entity ${judgment.entityId} in assignment ${judgment.assignmentId}`)),
    ]));
    expect(failedInvariants(ANNOTATORS, result, verification)).toEqual(expect.arrayContaining(['lost rows: 2', 'duplicated rows: 1']));
  });
});
