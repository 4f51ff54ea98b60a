import { describe, expect, it } from 'vitest';
import type { StrictCandidate } from '../../../lib/retrieval/bm25-score';
import { matchInText, type MayFollow, type StrictVerdict } from '../../../lib/retrieval/bm25-search';
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

  it('rules out candidates by the adjacency of the phrase words, and reads the text only of the others', async () => {
    // Terms 1 and 2, a phrase "a b": entities 1-300 hold both words; every fifth holds the phrase; of the rest,
    // every seventh has adjacency that cannot rule it out.
    const phrase = (id: number) => id % 5 === 0;
    const lookalike = (id: number) => !phrase(id) && id % 7 === 0;
    const pool = Array.from({ length: 300 }, (_, i): StrictCandidate => ({ entityId: i + 1, score: 1_000 - i, present: [1, 2] }));
    const textRead: number[] = [];
    const db = {
      query: async (_sql: string, values: unknown[]) => {
        const ids = values[1] as number[];
        textRead.push(...ids);
        return { rows: ids.map((id) => ({ id, text: phrase(id) ? 'x a b' : 'a x b' })) };
      },
    } as unknown as Queryable;
    const asked: string[] = [];
    const follows: MayFollow = (id, a, b) => (asked.push(`${a}>${b}`), phrase(id) || lookalike(id));
    const byText: StrictVerdict = (holds, text, mayFollow) => {
      if (!holds(1) || !holds(2)) return false;
      if (mayFollow && !mayFollow(1, 2)) return false;
      return text ? text().includes('a b') : null;
    };
    const { rows, looked } = await matchInText(db, 1, pool, byText, 1_000, follows);
    expect(rows.map((r) => r.entityId)).toEqual(pool.filter((c) => phrase(c.entityId)).map((c) => c.entityId));
    expect(looked).toBe(300);
    expect(new Set(asked)).toEqual(new Set(['1>2']));
    expect(textRead).toEqual(pool.map((c) => c.entityId).filter((id) => phrase(id) || lookalike(id)));
  });
});
