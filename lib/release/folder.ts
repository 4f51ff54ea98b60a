import type { Queryable } from '../db/transaction';
import { datasetCard } from '../queries/dataset-card';
import { firstNonIntegerId } from '../queries/read';
import type { ReleaseWithRecord } from '../queries/releases';
import type { QuerySetSummary } from '../queries/sets';
import { croissant, type FolderFile } from './croissant';
import { hfRows, hfSplitNames, jsonlBytes, parquetBytes } from './hf-data';
import { hfReadme } from './hf-readme';
import { releasePageUrl } from './page-url';
import { gatherReleaseRecord, releaseLookups, type ReleaseRecord } from './record';

/**
 * The release's record: the one stored with it, or, for a release made before records were kept, gathered now
 * from its frozen queries (and the campaigns, jobs and studies of its set as they are today).
 */
export async function releaseRecord(db: Queryable, set: QuerySetSummary, kb: { name: string; slug: string }, release: ReleaseWithRecord, requestUrl: string): Promise<ReleaseRecord> {
  if (release.record) return release.record;
  const source = { releaseId: release.id };
  return gatherReleaseRecord(db, {
    set, kb, source, stats: release.stats, language: 'en', starkIds: !(await firstNonIntegerId(db, source)),
    release: {
      number: release.number, name: release.name, notes: release.notes, contentHash: release.contentHash,
      createdAt: new Date(release.createdAt).toISOString(), createdBy: null,
      url: releasePageUrl({ slug: kb.slug, set: set.name, number: release.number }, requestUrl),
    },
  }, await releaseLookups(db, set.kbId, set.id, source));
}

/**
 * The `hf/` folder: README.md (the card under the Hub's YAML front matter), `data/<split>.jsonl` and
 * `data/<split>.parquet`, and `croissant.json` listing the others with their SHA-256. Built in memory, as the
 * hashes must be known before croissant.json is written.
 */
export async function huggingFaceFolder(db: Queryable, kbId: number, releaseId: number, record: ReleaseRecord): Promise<{ path: string; bytes: Buffer }[]> {
  const splitNames = hfSplitNames(record.stats.bySplit.map((s) => s.split));
  const splits = [...splitNames.values()];
  const rows = await hfRows(db, kbId, { releaseId }, splitNames);
  const files: FolderFile[] = [{
    path: 'README.md', bytes: Buffer.from(hfReadme(record, splits, datasetCard(record)), 'utf8'), encodingFormat: 'text/markdown',
    description: 'The dataset card, with the Hugging Face Hub\'s YAML front matter.',
  }];
  for (const split of splits) {
    const data = rows.get(split)!;
    files.push(
      { path: `data/${split}.jsonl`, bytes: jsonlBytes(data), encodingFormat: 'application/jsonlines', description: `The ${split} split, one query a line.` },
      { path: `data/${split}.parquet`, bytes: parquetBytes(data), encodingFormat: 'application/x-parquet', description: `The ${split} split in Parquet, the same rows and columns.` },
    );
  }
  const metadata = Buffer.from(`${JSON.stringify(croissant(record, splits, files), null, 2)}\n`, 'utf8');
  return [...files.map(({ path, bytes }) => ({ path, bytes })), { path: 'croissant.json', bytes: metadata }];
}
