import fs from 'node:fs';
import { expect } from '@playwright/test';
import { CURATOR, signIn, waitForHydration, test } from './fixtures';
import { importGearKb, uploadFile } from './gear-kb';
import { croissantProblems, folderFiles, frontMatter, hashProblems, hfCardProblems, parquetRows } from '../test/support/release-checks';
import { zipEntries } from '../test/support/zip-entries';

/**
 * A release that venues accept, through the browser: a curator releases a small query set (one answer the
 * knowledge base lacks, kept at import) and downloads it; the zip's Hugging Face folder is checked against the
 * Hub's card metadata and the Croissant 1.1 specification, every hash against its file.
 */

const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

test('a curator downloads a release with a Hugging Face folder and a Croissant file that check out', async ({ page }) => {
  test.setTimeout(120_000);
  const slug = unique('venue');
  const setName = unique('vs');
  await signIn(page, CURATOR);
  const api = page.request;
  await importGearKb(api, slug);
  const queries = [
    { id: 'q1', query: 'a tent by Northpeak', answer_ids: ['301'], split: 'train' },
    { id: 'q2', query: 'a bivy made of ripstop', answer_ids: ['304', 'lost'], split: 'test' },
  ].map((q) => JSON.stringify(q)).join('\n');
  const set = await api.post(`/api/kbs/${slug}/query-sets`, { data: { name: setName, format: 'jsonl', license: 'CC-BY-4.0', unknownIds: 'keep', files: [{ uploadId: await uploadFile(api, 'queries.jsonl', queries), kind: 'queries' }] } });
  expect(set.status(), await set.text()).toBe(201);

  await page.goto(`/kb/${slug}/queries/${setName}?tab=releases`);
  await waitForHydration(page.getByRole('button', { name: 'Make release' }));
  await page.getByLabel('Release name').fill('For the venue');
  await page.getByLabel('Language of the queries').fill('de');
  await page.getByRole('button', { name: 'Make release' }).click();
  await expect(page.getByRole('status')).toContainText('Release 1 made.');
  await page.getByRole('link', { name: 'Release 1', exact: true }).click();
  await expect(page.getByTestId('dataset-card')).toContainText('1 answer id and 0 seed ids are not entities of the knowledge base');
  const hf = page.getByLabel(/^Hugging Face folder/);
  await waitForHydration(hf);
  await expect(hf).toBeChecked();
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download release 1' }).click();
  const download = await downloading;
  const files = folderFiles(zipEntries(fs.readFileSync((await download.path())!)), `${setName}-v1/hf`);

  expect([...files.keys()].sort()).toEqual(['README.md', 'croissant.json', 'data/test.jsonl', 'data/test.parquet', 'data/train.jsonl', 'data/train.parquet']);
  const readme = files.get('README.md')!.toString('utf8');
  expect(hfCardProblems(readme, files)).toEqual([]);
  expect(frontMatter(readme)).toMatchObject({ license: 'cc-by-4.0', language: ['de'], size_categories: ['n<1K'], task_categories: ['text-retrieval'] });
  const croissant = JSON.parse(files.get('croissant.json')!.toString('utf8')) as Record<string, string>;
  expect(croissantProblems(croissant)).toEqual([]);
  expect(hashProblems(croissant, files)).toEqual([]);
  expect(croissant.inLanguage).toBe('de');
  expect(croissant.url).toMatch(new RegExp(`/kb/${slug}/queries/${setName}/releases/1$`));
  expect(croissant['rai:dataCollectionMissingData']).toContain('q2 (lost)');
  expect(readme).toContain(croissant['rai:dataCollectionMissingData']);
  expect(await parquetRows(files.get('data/test.parquet')!)).toEqual([{ id: 'q2', query: 'a bivy made of ripstop', answer_ids: ['304', 'lost'], answer_ids_source: [], unresolved_ids: ['lost'], metadata: '{}' }]);

  // An unknown format is refused, naming the parameter.
  const bad = await api.get(`/api/kbs/${slug}/query-sets/${setName}/releases/1/download?formats=hf,croissant`);
  expect(bad.status()).toBe(400);
  expect(await bad.text()).toContain('formats');
});
