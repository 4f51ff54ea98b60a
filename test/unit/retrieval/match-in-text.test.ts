import { describe, expect, it } from 'vitest';
import type { StrictCandidate } from '../../../lib/retrieval/bm25-score';
import { matchInText, type StrictVerdict } from '../../../lib/retrieval/bm25-search';
import type { Queryable } from '../../../lib/db/transaction';

// 1,000 candidates best first, scores in runs of three ties; every third holds "x" in its text.
const candidates: StrictCandidate[] = Array.from({ length: 1_000 }, (_, i) => ({ entityId: i + 1, score: 100 - Math.floor(i / 3), present: [1, 2] }));
// Term 3 held: decided from the postings (a match, its text never read).
for (const c of candidates) if (c.entityId % 50 === 0) c.present = [1, 2, 3];
const textOf = (id: number) => (id % 3 === 1 ? 'holds x' : 'does not');
const verdict: StrictVerdict = (holds, text) => (holds(3) ? true : text ? text().includes('x') : null);
const matches = candidates.filter((c) => c.present.includes(3) || textOf(c.entityId).includes('x'));

/** A database that answers the text query and records the ids each call asked for. */
function fakeDb(asked: number[][]): Queryable {
  return {
    query: async (_sql: string, [, ids]: [number, number[]]) => {
      asked.push(ids);
      return { rows: ids.map((id) => ({ id, text: textOf(id) })) };
    },
  } as unknown as Queryable;
}

describe('matchInText', () => {
  it('reads text only where the postings cannot tell, in doubling batches, and stops once enough match with their ties', async () => {
    const asked: number[][] = [];
    const { rows, looked } = await matchInText(fakeDb(asked), 1, candidates, verdict, 100);
    // The 100th match and those tying with it, then nothing further.
    const cut = matches[99]!.score;
    expect(rows).toEqual(matches.filter((m) => m.score >= cut));
    expect(rows.length).toBeGreaterThanOrEqual(100);
    expect(looked).toBe(candidates.findIndex((c) => c.score < cut));
    // Batches of 128 and 256 candidates, less those decided from the postings (2 and 5 of them).
    expect(asked.map((ids) => ids.length)).toEqual([126, 251]);
    expect(asked.flat().some((id) => id % 50 === 0)).toBe(false);
  });

  it('looks at every candidate when too few match', async () => {
    const asked: number[][] = [];
    const { rows, looked } = await matchInText(fakeDb(asked), 1, candidates, verdict, 10_000);
    expect(rows).toEqual(matches);
    expect(looked).toBe(candidates.length);
    expect(asked.flat().length).toBe(candidates.filter((c) => !c.present.includes(3)).length);
  });
});
