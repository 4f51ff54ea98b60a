import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimNext } from '../../lib/authoring/assignments';
import { createCampaign } from '../../lib/authoring/campaigns';
import { judge, saveDraft, type JudgmentLabel } from '../../lib/authoring/drafts';
import { approveQuery } from '../../lib/authoring/review';
import { submitAssignment } from '../../lib/authoring/submit';
import { Role } from '../../lib/auth/roles';
import { createUser } from '../../lib/auth/users';
import { llmConfig } from '../../lib/llm/config';
import { getPrompt } from '../../lib/llm/prompts';
import { importQueries } from '../../lib/queries/import';
import { cliQueryFiles, readQueryInput } from '../../lib/queries/input';
import { releaseDownload } from '../../lib/queries/download';
import { createRelease, getReleaseWithRecord } from '../../lib/queries/releases';
import { getQuerySet, type QuerySetSummary } from '../../lib/queries/sets';
import { createStudy } from '../../lib/studies/create';
import { issueLinks, participantByToken } from '../../lib/studies/participants';
import { giveConsent, saveRating, startParticipation } from '../../lib/studies/participate';
import { runSynthesisJob, startSynthesisJob } from '../../lib/synthesis/jobs';
import { jobSpecSchema } from '../../lib/synthesis/spec';
import { db, openAppDatabase, pool } from '../support/app-database';
import { startFakeChatServer } from '../support/fake-chat-server';
import { plausibleReply } from '../support/plausible-llm';
import { ibdIds, importIbd } from '../support/primekg-ibd';
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

async function download(number: number, of: QuerySetSummary = set): Promise<Map<string, Buffer>> {
  const release = await getReleaseWithRecord(pool(), of.id, number);
  const res = await releaseDownload(pool(), { set: of, kb, release, requestUrl: 'http://studio.test/api/x' }, `${of.name}-v${number}`, ['jsonl', 'hf']);
  return folderFiles(zipEntries(Buffer.from(await res.arrayBuffer())), `${of.name}-v${number}/hf`);
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

describe('the Responsible-AI fields, from the campaigns, studies and synthesis jobs behind a release', () => {
  const RAI_SET = 'rai-set';
  /** The text under a heading of the dataset card, up to the next heading. */
  const section = (readme: string, heading: string) => readme.split(`\n## ${heading}\n\n`)[1]!.split('\n\n## ')[0]!.trim();
  let raiSet: QuerySetSummary;
  let jobId: number;

  beforeAll(async () => {
    const [ann, bea, rev, curator] = await Promise.all(['ann', 'bea', 'rev', 'cur'].map((n, i) =>
      createUser(db(), { email: `${n}@example.org`, name: n, password: 'a long password', role: i < 2 ? Role.ANNOTATOR : Role.CURATOR })));

    // Three synthesized queries, written and filtered by a model.
    const fake = await startFakeChatServer(({ messages }) => plausibleReply(messages));
    try {
      const llm = llmConfig({ SKB_LLM_BASE_URL: fake.baseUrl, SKB_LLM_MODEL: 'writer', SKB_LLM_FILTER_MODELS: 'judge-a,judge-b', SKB_LLM_CONCURRENCY: '2' });
      const spec = jobSpecSchema.parse({ querySet: RAI_SET, templates: ['drug -[target]-> gene/protein'], count: 3, useLlm: true, maxAnswers: 100 });
      jobId = await startSynthesisJob(pool(), kbId, spec, null, llm);
      expect((await runSynthesisJob(pool(), jobId, { llm })).status).toBe('SUCCEEDED');
    } finally {
      await fake.close();
    }

    // A fourth query, written in a campaign where two annotators worked on the same seed, approved into the set.
    const { idOf } = await ibdIds(pool(), kbId);
    const { id: campaignId } = await createCampaign(pool(), kbId, {
      name: 'rai-writers', guidelines: GUIDELINES, annotatorsPerSeed: 2, leaseMinutes: 60, leakPolicy: 'warn', querySet: RAI_SET, annotatorIds: [ann!.id, bea!.id], open: true,
    }, { mode: 'list', text: '144\n', file: 'seeds.txt' }, null);
    const work = async (user: number, text: string, labels: Record<string, JudgmentLabel>) => {
      const a = (await claimNext(pool(), campaignId, user))!;
      await saveDraft(pool(), a.id, user, { text, version: 0 });
      for (const [entity, label] of Object.entries(labels)) await judge(pool(), a.id, user, { entityId: idOf.get(entity)!, label, version: 0 });
      await submitAssignment(pool(), a.id, user, 1);
      return a;
    };
    const first = await work(ann!.id, 'Which protein carries TGF-beta signals into the nucleus?', { 179: 'relevant', 192: 'relevant', 37784: 'not_relevant' });
    await work(bea!.id, 'Which transcription factor mediates TGF-beta signalling?', { 179: 'not_relevant', 192: 'relevant', 37784: 'not_relevant' });
    await approveQuery(pool(), first.id, rev!.id, { decisions: [{ entityId: idOf.get('192')!, accept: true }, { entityId: idOf.get('179')!, accept: false, reason: 'not in the pathway' }] });

    // A study in which two participants rate all four queries on one yes / no dimension.
    const study = await createStudy(pool(), kbId, {
      name: 'rai-study', sources: [{ querySet: RAI_SET }], itemsPerParticipant: 4, participantsPerItem: 2, seed: 3, open: true,
      dimensions: [{ kind: 'binary', key: 'natural', label: 'Natural', question: 'Would a person ask this?' }],
    }, curator!.id);
    expect(study.items).toBe(4);
    const values = [[1, 1], [0, 0], [0, 0], [1, 0]];
    for (const [p, token] of (await issueLinks(pool(), study.id, 2, curator!.id)).entries()) {
      const me = await participantByToken(pool(), token);
      await giveConsent(pool(), me);
      const items = (await startParticipation(pool(), me)).items.map((i) => i.itemId).sort((x, y) => x - y);
      expect(items).toHaveLength(4);
      for (const [n, itemId] of items.entries()) await saveRating(pool(), me, { itemId, dimension: 'natural', value: values[n]![p]! });
    }

    raiSet = await getQuerySet(pool(), kbId, RAI_SET);
    await createRelease(pool(), raiSet, kb, { name: 'with its records', userId: curator!.id, requestUrl: 'http://studio.test/api/x' });
  }, 180_000);

  it('counts the annotators and raters and gives their agreement, in croissant.json and the card alike', async () => {
    const files = await download(1, raiSet);
    const doc = JSON.parse(files.get('croissant.json')!.toString('utf8')) as Record<string, string>;
    expect(croissantProblems(doc)).toEqual([]);
    const readme = files.get('README.md')!.toString('utf8');

    // The campaign: relevant sets {179, 192} and {192}, Jaccard 1/2. Its units (entities both judged):
    // 179 (relevant, not relevant), 192 (relevant, relevant), 37784 (not relevant, not relevant), so
    // n = 6 values, 3 of each; observed disagreement 2/6, expected 2 * 3 * 3 / (6 * 5) = 3/5; alpha = 1 - 5/9 = 0.44.
    // The study: items (1, 1), (0, 0), (0, 0), (1, 0): n = 8 values, three 1s and five 0s; observed disagreement 2/8,
    // expected 2 * 3 * 5 / (8 * 7) = 15/28; alpha = 1 - 7/15 = 0.53.
    const analysis = doc['rai:dataAnnotationAnalysis']!;
    expect(analysis).toContain("Campaign rai-writers: Krippendorff's alpha (nominal) 0.44 over 3 judged entities; mean pairwise Jaccard similarity of the annotators' answer sets 0.50 over 1 seed");
    expect(analysis).toContain("Rating study rai-study: 2 participants gave 8 ratings; Krippendorff's alpha Natural 0.53 (4 items).");
    expect(doc['rai:dataAnnotationProtocol']).toContain('Campaign rai-writers (authoring): 2 annotators handed in work, up to 2 per seed; 1 reviewer adjudicated it');
    expect(doc['rai:dataCollection']).toContain('1 query was written in the authoring campaign rai-writers');
    expect(section(readme, 'Agreement')).toBe(analysis);
    expect(section(readme, 'Annotation protocol')).toBe(doc['rai:dataAnnotationProtocol']);
  });

  it('names the synthesis job\'s models and the versions of its prompts, in croissant.json and the card alike', async () => {
    const files = await download(1, raiSet);
    const doc = JSON.parse(files.get('croissant.json')!.toString('utf8')) as Record<string, string>;
    const readme = files.get('README.md')!.toString('utf8');
    const prompts = (['synthesis.compose', 'synthesis.filter', 'synthesis.properties'] as const).map((id) => `${id} v${getPrompt(id).version}`).join(', ');
    const tools = doc['rai:machineAnnotationTools']!;
    expect(tools).toBe(`Synthesis job ${jobId}: SKB Studio's STaRK pipeline with writer (properties, composition) and judge-a, judge-b (filter); prompts ${prompts}.`);
    expect(section(readme, 'Machine annotation tools')).toBe(tools);
    expect(readme).toContain(`| Prompts | ${prompts} |`);
    expect(doc['rai:dataCollection']).toContain(`3 queries were synthesized by synthesis job ${jobId} with the language model writer`);
    expect(section(readme, 'Data collection')).toContain(doc['rai:dataCollection']);
  });
});
