import fs from 'node:fs';
import path from 'node:path';
import { starkCsvHeader, starkCsvRow } from '../../queries/formats/stark';
import { STARK_SPLITS, writeSplitFile } from '../../queries/formats/splits';
import { shuffle, stream, type Rng } from './random';
import { writeLines } from './sink';

export interface GeneratedQuery {
  text: string;
  /** Answer entities (generated entity indexes), ascending. */
  answers: number[];
}

/** STaRK's split proportions (train, val, test). */
const SPLIT_SHARES = [0.6, 0.2, 0.2];

/**
 * Writes `queries/stark_qa.csv` (id,query,answer_ids, ids 0..n-1) and `queries/split/{train,val,test}.index`,
 * as STaRK ships them and `skb queries import --format stark --splits` reads them.
 */
export async function writeStarkQueries(outDir: string, queries: GeneratedQuery[], seed: number): Promise<{ csv: string; splits: string; count: number }> {
  const dir = path.join(outDir, 'queries');
  const splits = path.join(dir, 'split');
  fs.mkdirSync(splits, { recursive: true });
  const csv = path.join(dir, 'stark_qa.csv');
  await writeLines(csv, async (sink) => {
    await sink.write(starkCsvHeader(false));
    for (let i = 0; i < queries.length; i++) {
      const q = queries[i]!;
      await sink.write(starkCsvRow({ id: String(i), text: q.text, answers: q.answers.map(String), seeds: [], split: null, metadata: {} }, false));
    }
  });
  const order = shuffle(Int32Array.from(queries.keys()), stream(seed, 'splits'));
  let from = 0;
  STARK_SPLITS.forEach((split, i) => {
    const to = i === STARK_SPLITS.length - 1 ? order.length : from + Math.round(order.length * SPLIT_SHARES[i]!);
    const ids = Array.from(order.subarray(from, to)).sort((a, b) => a - b).map(String);
    fs.writeFileSync(path.join(splits, `${split}.index`), writeSplitFile(ids));
    from = to;
  });
  return { csv, splits, count: queries.length };
}

/** Fills `{name}` placeholders of a phrasing. */
export function fill(phrasing: string, values: Record<string, string>): string {
  return phrasing.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? `{${key}}`);
}

/** Out-lists of one relation as a flat array: source `base + i` has targets[offsets[i] .. offsets[i + 1] - 1]. */
export interface OutLists {
  base: number;
  offsets: Int32Array;
  targets: Int32Array;
}

/** Whether `entity`'s out-list holds `target`. */
function holds(lists: OutLists, entity: number, target: number): boolean {
  const local = entity - lists.base;
  for (let j = lists.offsets[local]!; j < lists.offsets[local + 1]!; j++) if (lists.targets[j] === target) return true;
  return false;
}

/**
 * A narrowing of `pool` (entities, repeats allowed) to those whose out-list in `lists` holds one value,
 * taken from a random member's list so that at least one answers: the value and the members (ascending,
 * once each) when they number 1..`max`; null when a few tries find none.
 */
export function narrow(pool: readonly number[], lists: OutLists, rng: Rng, max: number): { value: number; answers: number[] } | null {
  for (let attempt = 0; attempt < 4 && pool.length > 0; attempt++) {
    const member = pool[Math.floor(rng() * pool.length)]! - lists.base;
    const from = lists.offsets[member]!;
    const n = lists.offsets[member + 1]! - from;
    if (n === 0) continue;
    const value = lists.targets[from + Math.floor(rng() * n)]!;
    const answers = new Set<number>();
    for (const c of pool) {
      if (holds(lists, c, value)) answers.add(c);
      if (answers.size > max) break;
    }
    if (answers.size <= max) return { value, answers: [...answers].sort((a, b) => a - b) };
  }
  return null;
}

/** Turns a map of seeds into a source of queries: each call tries seeds until one yields a query; undefined when none are left. */
export function queue<T>(seeds: Map<number, T>, make: (seed: number, value: T) => GeneratedQuery | null): () => GeneratedQuery | undefined {
  const it = seeds.entries();
  return () => {
    for (let next = it.next(); !next.done; next = it.next()) {
      const q = make(next.value[0], next.value[1]);
      if (q) return q;
    }
    return undefined;
  };
}

/** Up to `count` queries, taking from each template in turn while it has any. */
export function takeRoundRobin(templates: (() => GeneratedQuery | undefined)[], count: number): GeneratedQuery[] {
  const out: GeneratedQuery[] = [];
  const live = [...templates];
  while (out.length < count && live.length > 0) {
    for (let i = 0; i < live.length && out.length < count; ) {
      const q = live[i]!();
      if (q) {
        out.push(q);
        i++;
      } else live.splice(i, 1);
    }
  }
  return out;
}
