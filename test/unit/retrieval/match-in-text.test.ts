import { describe, expect, it } from 'vitest';
import type { StrictCandidate } from '../../../lib/retrieval/bm25-score';
import { matchInText, type StrictVerdict } from '../../../lib/retrieval/bm25-search';
import type { Queryable } from '../../../lib/db/transaction';
import { adjacencyBit } from '../../../lib/retrieval/bm25-adjacent';

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

  it('reads the adjacency of the phrase words first, and the text only of candidates it cannot rule out', async () => {
    // Terms 1 and 2 (ids 11 and 12), a phrase "a b": entities 1-300 hold both words; every fifth holds the
    // phrase, and so has 12 just after 11; of the rest, every seventh has a neighbour sharing 12's bit.
    const [a, b] = [11, 12];
    const other = [...Array(100).keys()].find((id) => id > 12 && adjacencyBit(id) !== adjacencyBit(b))!;
    const phrase = (id: number) => id % 5 === 0;
    const lookalike = (id: number) => !phrase(id) && id % 7 === 0;
    const after = (id: number) => (phrase(id) || lookalike(id) ? adjacencyBit(b) : adjacencyBit(other));
    const pool = Array.from({ length: 300 }, (_, i): StrictCandidate => ({ entityId: i + 1, score: 1_000 - i, present: [1, 2] }));
    const textRead: number[] = [];
    const adjacencyAsked: number[][] = [];
    const db = {
      query: async (sql: string, values: unknown[]) => {
        if (sql.includes('bm25_block')) {
          // Each term's two bytes per id asked: a's say what follows it; b's hold every bit before it.
          const ids = values[2] as number[];
          adjacencyAsked.push(ids);
          const bytes = (v: number) => Buffer.from([v >> 8, v & 0xff]);
          // An id the block does not hold has no bytes (NULL): nothing is ruled out by that word.
          return { rows: ids.flatMap((id) => [{ term: a, entity: id, a: bytes(after(id)) }, { term: b, entity: id, a: id % 11 ? bytes(0xff00) : null }]) };
        }
        const ids = values[1] as number[];
        textRead.push(...ids);
        return { rows: ids.map((id) => ({ id, text: phrase(id) ? 'x a b' : 'a x b' })) };
      },
    } as unknown as Queryable;
    const byText: StrictVerdict = (holds, text, follows) => {
      if (!holds(1) || !holds(2)) return false;
      if (follows && !follows(1, 2)) return false;
      return text ? text().includes('a b') : null;
    };
    const terms = [{ n: 1, id: a, df: 1_000 }, { n: 2, id: b, df: 1_000 }];
    const { rows, looked } = await matchInText(db, 1, pool, byText, 1_000, { indexId: 9, terms });
    expect(rows.map((r) => r.entityId)).toEqual(pool.filter((c) => phrase(c.entityId)).map((c) => c.entityId));
    expect(looked).toBe(300);
    expect(adjacencyAsked.map((ids) => ids.length)).toEqual([128, 172]);
    expect(textRead).toEqual(pool.map((c) => c.entityId).filter((id) => phrase(id) || lookalike(id)));
  });
});
