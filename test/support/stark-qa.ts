import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { importQueries } from '../../lib/queries/import';
import { cliQueryFiles, readQueryInput } from '../../lib/queries/input';
import { IBD_DIR } from './primekg-ibd';

/** STaRK's query files in the shared data folder beside the checkout. */
export const STARK_QA_DIR = path.resolve(process.cwd(), '..', 'shared', 'data', 'stark-qa');

export interface StarkQaFile {
  /** e.g. "prime/stark_qa.csv" */
  label: string;
  csv: string;
  /** The split folder that goes with the file (the synthesized sets only). */
  splits?: string;
}

/** Every STaRK QA file of the shared data, with its splits; fails loudly when the data is missing. */
export function starkQaFiles(): StarkQaFile[] {
  if (!fs.existsSync(STARK_QA_DIR)) throw new Error(`Real test data missing: ${STARK_QA_DIR} (the shared data folder must sit beside the checkout)`);
  const files: StarkQaFile[] = [];
  for (const kb of fs.readdirSync(STARK_QA_DIR).filter((d) => fs.statSync(path.join(STARK_QA_DIR, d)).isDirectory()).sort()) {
    for (const name of fs.readdirSync(path.join(STARK_QA_DIR, kb)).filter((f) => /^stark_qa.*\.csv$/.test(f)).sort()) {
      files.push({ label: `${kb}/${name}`, csv: path.join(STARK_QA_DIR, kb, name), splits: name === 'stark_qa.csv' ? path.join(STARK_QA_DIR, kb, 'split') : undefined });
    }
  }
  if (files.length < 4) throw new Error(`Expected the four STaRK QA files under ${STARK_QA_DIR}, found ${files.length}`);
  return files;
}

/** The 829 STaRK-Prime queries whose answers all lie in the PrimeKG IBD fixture. */
export const IBD_QA_CSV = path.join(IBD_DIR, 'stark_prime_qa_ibd_subset.csv');

/**
 * Imports the IBD queries (the first `limit` of them, else all) as query set `setName` of the imported IBD
 * knowledge base; returns the set's id.
 */
export async function importIbdQuerySet(pool: pg.Pool, kbId: number, setName = 'ibd', limit?: number): Promise<number> {
  const input = await readQueryInput('stark', cliQueryFiles('stark', [IBD_QA_CSV]));
  const { setId } = await importQueries(pool, limit === undefined ? input.records : first(input.records, limit), { kbId, setName, origin: 'synthesized', unknownIds: 'reject', userId: null, sourceName: 'ibd.csv' });
  return setId;
}

async function* first<T>(items: AsyncIterable<T>, n: number): AsyncIterable<T> {
  let left = n;
  for await (const item of items) {
    if (left-- <= 0) return;
    yield item;
  }
}
