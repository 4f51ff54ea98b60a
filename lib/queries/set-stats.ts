/**
 * The description of a query set the STaRK paper gives in Table 3 (queries, queries with several answers,
 * answers per query, split sizes) plus the distributions its figures chart (query length, answers per
 * query) and the lexical measures of Table 4. Queries are added one at a time so a set of any size is
 * described without holding it in memory.
 */
import { tokenize, WordFrequencies, type LexicalDiversity } from './text-stats';

export interface SetStatsQuery {
  split: string | null;
  answerCount: number;
  text: string;
}

/** Values from `min` to `max` inclusive; `max` null means no upper bound. */
export interface HistogramBin {
  label: string;
  min: number;
  max: number | null;
  count: number;
}

export interface QueryGroupStats {
  queries: number;
  /** Queries with more than one answer. */
  multiAnswer: number;
  /** Mean answers per query; 0 when there are no queries. */
  averageAnswers: number;
  /** Mean words per query (as `tokenize` counts them); 0 when there are no queries. */
  averageWords: number;
  /** Every bin, always: 0 to 10 one by one, then 11–20, 21–50, 51–100 and more than 100. */
  answerHistogram: HistogramBin[];
  /** Bins of 5 words (0–4, 5–9, ...) up to the longest query. */
  lengthHistogram: HistogramBin[];
  lexical: LexicalDiversity;
}

export interface SplitShare {
  /** null: the queries in no split. */
  split: string | null;
  queries: number;
  /** queries / all queries of the set. */
  ratio: number;
}

export interface QuerySetStats extends QueryGroupStats {
  splits: SplitShare[];
  bySplit: (QueryGroupStats & { split: string | null })[];
}

const ANSWER_BINS: { min: number; max: number | null }[] = [
  ...Array.from({ length: 11 }, (_, n) => ({ min: n, max: n })),
  { min: 11, max: 20 },
  { min: 21, max: 50 },
  { min: 51, max: 100 },
  { min: 101, max: null },
];
const WORD_BIN_WIDTH = 5;

function binLabel(min: number, max: number | null): string {
  if (max === null) return `>${min - 1}`;
  return min === max ? String(min) : `${min}–${max}`;
}

function answerBin(count: number): number {
  return ANSWER_BINS.findIndex((b) => b.max === null || count <= b.max);
}

const WELL_KNOWN_SPLITS = ['train', 'val', 'valid', 'dev', 'test'];

/** Split order for reports: train, validation, test first, then other names alphabetically, no split last. */
export function compareSplits(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  const ka = WELL_KNOWN_SPLITS.indexOf(a);
  const kb = WELL_KNOWN_SPLITS.indexOf(b);
  if (ka !== -1 || kb !== -1) return (ka === -1 ? Infinity : ka) - (kb === -1 ? Infinity : kb);
  return a < b ? -1 : 1;
}

class GroupTally {
  private queries = 0;
  private multiAnswer = 0;
  private answers = 0;
  private words = 0;
  private readonly answerBins = ANSWER_BINS.map(() => 0);
  private readonly wordBins: number[] = [];
  private readonly freq = new WordFrequencies();

  add(q: SetStatsQuery, words: readonly string[]): void {
    this.freq.add(words);
    this.queries += 1;
    this.answers += q.answerCount;
    this.words += words.length;
    if (q.answerCount > 1) this.multiAnswer += 1;
    this.answerBins[answerBin(q.answerCount)]! += 1;
    const wordBin = Math.floor(words.length / WORD_BIN_WIDTH);
    while (this.wordBins.length <= wordBin) this.wordBins.push(0);
    this.wordBins[wordBin]! += 1;
  }

  get size(): number {
    return this.queries;
  }

  result(): QueryGroupStats {
    return {
      queries: this.queries,
      multiAnswer: this.multiAnswer,
      averageAnswers: this.queries === 0 ? 0 : this.answers / this.queries,
      averageWords: this.queries === 0 ? 0 : this.words / this.queries,
      answerHistogram: ANSWER_BINS.map((b, i) => ({ label: binLabel(b.min, b.max), ...b, count: this.answerBins[i]! })),
      lengthHistogram: this.wordBins.map((count, i) => {
        const min = i * WORD_BIN_WIDTH;
        const max = min + WORD_BIN_WIDTH - 1;
        return { label: binLabel(min, max), min, max, count };
      }),
      lexical: this.freq.result(),
    };
  }
}

/** Describes a query set fed one query at a time with `add()`; `result()` may be called at any point. */
export class QuerySetStatsAccumulator {
  private readonly all = new GroupTally();
  private readonly splits = new Map<string | null, GroupTally>();

  add(q: SetStatsQuery): void {
    if (!Number.isInteger(q.answerCount) || q.answerCount < 0) {
      throw new RangeError(`answerCount must be a non-negative integer, got ${q.answerCount}`);
    }
    const words = tokenize(q.text);
    this.all.add(q, words);
    let split = this.splits.get(q.split);
    if (!split) {
      split = new GroupTally();
      this.splits.set(q.split, split);
    }
    split.add(q, words);
  }

  result(): QuerySetStats {
    const names = [...this.splits.keys()].sort(compareSplits);
    const total = this.all.size;
    return {
      ...this.all.result(),
      splits: names.map((split) => {
        const queries = this.splits.get(split)!.size;
        return { split, queries, ratio: queries / total };
      }),
      bySplit: names.map((split) => ({ split, ...this.splits.get(split)!.result() })),
    };
  }
}
