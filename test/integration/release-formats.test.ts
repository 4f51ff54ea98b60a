import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importQueries } from '../../lib/queries/import';
import { cliQueryFiles, readQueryInput } from '../../lib/queries/input';
import { releaseDownload } from '../../lib/queries/download';
import { createRelease, getReleaseWithRecord } from '../../lib/queries/releases';
import { getQuerySet, type QuerySetSummary } from '../../lib/queries/sets';
import { openAppDatabase, pool } from '../support/app-database';
import { importIbd } from '../support/primekg-ibd';
import { croissantProblems, folderFiles, frontMatter, hashProblems, hfCardProblems, parquetRows } from '../support/release-checks';
import type { TestDatabase } from '../support/test-database';
import { zipEntries } from '../support/zip-entries';

let testDb: TestDatabase;
let kbId: number;
let set: QuerySetSummary;
let known: string[];
const kb = { name: 'IBD', slug: 'ibd' };
const GUIDELINES = 'Write a question the seed answers, naming neither the seed nor any answer.';

beforeAll(async () => {
  testDb = await openAppDatabase();
  kbId = await importIbd(pool());
  known = (await pool().query<{ external_id: string }>('SELECT external_id FROM entity WHERE kb_id = $1 ORDER BY id LIMIT 4', [kbId])).rows.map((r) => r.external_id);
  // Two answers the knowledge base lacks (kept at import), a split whose name the Hub would refuse, a query in
  // no split, one synthesized query and one from a campaign.
  const [a, b, c, d] = known;
  const lines = [
    { id: 1, query: 'first question', answer_ids: [a], split: 'train' },
    { id: 2, query: 'second question', answer_ids: [b, 'gone-1'], split: 'train', metadata: { origin: 'synthesized' } },
    { id: 3, query: 'third question', answer_ids: [c], answer_ids_source: [d], split: 'test', metadata: { campaign: 'ibd-writers', author: 'Ann' } },
    { id: 4, query: 'fourth question', answer_ids: ['gone-2'], split: 'dev set' },
    { id: 5, query: 'fifth question', answer_ids: [a, b] },
  ];
  const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'skb-release-'));
  const file = path.join(dir, 'queries.jsonl');
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));
  const input = await readQueryInput('jsonl', cliQueryFiles('jsonl', [file]));
  await importQueries(pool(), input.records, { kbId, setName: 'venue-set', origin: 'human', splits: input.splits, unknownIds: 'keep', userId: null, sourceName: 'queries.jsonl' });
  await pool().query(`INSERT INTO campaign (kb_id, name, guidelines, annotators_per_seed) VALUES ($1, 'ibd-writers', $2, 2)`, [kbId, GUIDELINES]);
  await pool().query(`UPDATE query_set SET license = 'CC-BY-4.0', description = 'Questions about inflammatory bowel disease.' WHERE kb_id = $1 AND name = 'venue-set'`, [kbId]);
  set = await getQuerySet(pool(), kbId, 'venue-set');
}, 300_000);
afterAll(async () => testDb.drop());

async function download(number: number): Promise<Map<string, Buffer>> {
  const release = await getReleaseWithRecord(pool(), set.id, number);
  const res = await releaseDownload(pool(), { set, kb, release, requestUrl: 'http://studio.test/api/x' }, `venue-set-v${number}`, ['jsonl', 'hf']);
  return folderFiles(zipEntries(Buffer.from(await res.arrayBuffer())), `venue-set-v${number}/hf`);
}

const rowsOf = (bytes: Buffer) => bytes.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
const body = (readme: string) => readme.replace(/^---\n[\s\S]*?\n---\n\n/, '');

describe('release downloads: the Hugging Face folder and its Croissant file', () => {
  it('writes a folder the Hub and Croissant 1.1 accept, every hash matching its file', async () => {
    // The knowledge base as the route passes it: its row, with counts the driver reads as BigInt.
    const kbRow = { ...kb, entities: 10n };
    const release = await createRelease(pool(), set, kbRow, { name: 'for the venue', userId: null, requestUrl: 'http://studio.test/api/x' });
    const files = await download(release.number);
    expect([...files.keys()].sort()).toEqual(['README.md', 'croissant.json', ...['dev_set', 'test', 'train', 'unsplit'].flatMap((s) => [`data/${s}.jsonl`, `data/${s}.parquet`])].sort());
    const doc = JSON.parse(files.get('croissant.json')!.toString('utf8')) as Record<string, unknown>;
    expect(croissantProblems(doc)).toEqual([]);
    expect(hashProblems(doc, files)).toEqual([]);
    expect(hfCardProblems(files.get('README.md')!.toString('utf8'), files)).toEqual([]);

    const meta = frontMatter(files.get('README.md')!.toString('utf8'))!;
    expect(meta).toMatchObject({ license: 'cc-by-4.0', language: ['en'], size_categories: ['n<1K'], annotations_creators: ['expert-generated', 'machine-generated'] });
    expect(meta.configs).toEqual([{ config_name: 'default', data_files: ['train', 'test', 'dev_set', 'unsplit'].map((split) => ({ split, path: `data/${split}.jsonl` })) }]);
    expect(doc).toMatchObject({ name: 'venue-set-v1', version: '1.0.0', license: 'https://spdx.org/licenses/CC-BY-4.0.html', url: 'http://studio.test/kb/ibd/queries/venue-set/releases/1' });
    expect((doc.recordSet as { '@id': string }[]).map((r) => r['@id'])).toEqual(['train', 'test', 'dev_set', 'unsplit']);
  });

  it('writes the same rows to JSONL and Parquet, and the Parquet reads back', async () => {
    const files = await download(1);
    const train = rowsOf(files.get('data/train.jsonl')!);
    expect(train.map((r) => r.id)).toEqual(['1', '2']);
    expect(train[1]).toEqual({ id: '2', query: 'second question', answer_ids: [known[1], 'gone-1'], answer_ids_source: [], unresolved_ids: ['gone-1'], metadata: '{"origin":"synthesized"}' });
    for (const split of ['train', 'test', 'dev_set', 'unsplit']) {
      expect(await parquetRows(files.get(`data/${split}.parquet`)!)).toEqual(rowsOf(files.get(`data/${split}.jsonl`)!));
    }
  });

  it('says where the unresolved answer ids are, in the card and the Croissant file alike', async () => {
    const files = await download(1);
    const doc = JSON.parse(files.get('croissant.json')!.toString('utf8')) as Record<string, string>;
    const missing = doc['rai:dataCollectionMissingData']!;
    expect(missing).toContain('2 answer ids and 0 seed ids are not entities of the knowledge base ibd');
    expect(missing).toContain('2 queries name at least one');
    expect(missing).toContain('2 (gone-1); 4 (gone-2)');
    expect(rowsOf(files.get('data/dev_set.jsonl')!)[0]!.unresolved_ids).toEqual(['gone-2']);
    expect(doc['rai:dataLimitations']).toContain('2 queries name ids the knowledge base does not have');
    expect(files.get('README.md')!.toString('utf8')).toContain(missing);
  });

  it('generates the card and the Croissant file from one record, so they say the same', async () => {
    const release = await getReleaseWithRecord(pool(), set.id, 1);
    const files = await download(1);
    const readme = files.get('README.md')!.toString('utf8');
    expect(body(readme)).toBe(release.card);
    const doc = JSON.parse(files.get('croissant.json')!.toString('utf8')) as Record<string, unknown>;
    const said = Object.entries(doc).filter(([k]) => k.startsWith('rai:')).flatMap(([, v]) => (Array.isArray(v) ? v : [v]) as string[]);
    expect(said.length).toBeGreaterThanOrEqual(12);
    for (const text of [...said, doc.description as string, doc.citeAs as string]) expect(release.card).toContain(text);
    expect(doc['rai:dataAnnotationProtocol']).toContain(GUIDELINES);
    expect(doc['rai:dataCollection']).toContain('5 queries over the knowledge base IBD (ibd): 4 written by people, 1 synthesized. 1 query was written in the authoring campaign ibd-writers');
    expect(doc['rai:dataCollectionType']).toEqual(['Manual Human Curator', 'Software Collection']);
    expect(doc['rai:annotatorDemographics']).toMatch(/^Unknown/);
  });

  it('gathers the record when downloading a release made before records were kept', async () => {
    const { rows: [old] } = await pool().query<{ id: number }>(
      `INSERT INTO query_release (set_id, number, name, notes, content_hash, query_count, stats, card)
       SELECT set_id, 2, 'older', notes, content_hash, query_count, stats, card FROM query_release WHERE set_id = $1 AND number = 1 RETURNING id`, [set.id]);
    await pool().query(`INSERT INTO release_query (release_id, position, external_id, text, answer_ids, seed_ids, split, split_position, metadata)
      SELECT $1, position, external_id, text, answer_ids, seed_ids, split, split_position, metadata FROM release_query WHERE release_id = (SELECT id FROM query_release WHERE set_id = $2 AND number = 1)`, [old!.id, set.id]);
    expect((await getReleaseWithRecord(pool(), set.id, 2)).record).toBeNull();
    const files = await download(2);
    const doc = JSON.parse(files.get('croissant.json')!.toString('utf8')) as Record<string, string>;
    expect(croissantProblems(doc)).toEqual([]);
    expect(hashProblems(doc, files)).toEqual([]);
    expect(doc.version).toBe('2.0.0');
    expect(files.get('README.md')!.toString('utf8')).toContain(doc['rai:dataCollectionMissingData']!);
  });
});
