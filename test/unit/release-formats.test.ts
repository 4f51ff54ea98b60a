import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hfSplitNames } from '../../lib/release/hf-data';
import { sizeCategory } from '../../lib/release/hf-readme';
import { knownLicence } from '../../lib/release/licence';
import { croissantProblems, hashProblems, hfCardProblems } from '../support/release-checks';

describe('Hugging Face folder names and metadata', () => {
  it('names splits as the Hub requires, keeping distinct splits distinct', () => {
    expect([...hfSplitNames(['train', 'dev set', 'dev/set', null, 'v1.2']).values()]).toEqual(['train', 'dev_set', 'dev_set_2', 'unsplit', 'v1.2']);
  });

  it('puts a count in the Hub\'s size bucket', () => {
    expect([0, 999, 1000, 9999, 10_000, 250_000, 2_000_000].map(sizeCategory)).toEqual(['n<1K', 'n<1K', '1K<n<10K', '1K<n<10K', '10K<n<100K', '100K<n<1M', '1M<n<10M']);
  });

  it('reads a free-form licence as a Hub id and an SPDX page, or "other"', () => {
    expect(knownLicence('CC-BY-4.0')).toEqual({ hf: 'cc-by-4.0', url: 'https://spdx.org/licenses/CC-BY-4.0.html', text: 'CC-BY-4.0' });
    expect(knownLicence('cc by sa 4.0').hf).toBe('cc-by-sa-4.0');
    expect(knownLicence('Apache-2.0').url).toBe('https://spdx.org/licenses/Apache-2.0.html');
    expect(knownLicence('Research use only, ask us')).toEqual({ hf: 'other', url: null, text: 'Research use only, ask us' });
    expect(knownLicence('  ').hf).toBe('unknown');
  });
});

describe('the specification checks themselves', () => {
  const file = { '@type': 'cr:FileObject', '@id': 'data/train.jsonl', contentUrl: 'data/train.jsonl', encodingFormat: 'application/jsonlines', sha256: 'a'.repeat(64) };
  const minimal = {
    '@context': { '@vocab': 'http://schema.org/', cr: 'http://mlcommons.org/croissant/', rai: 'http://mlcommons.org/croissant/RAI/', dct: 'http://purl.org/dc/terms/', conformsTo: 'dct:conformsTo',
      citeAs: 'cr:citeAs', field: 'cr:field', fileObject: 'cr:fileObject', recordSet: 'cr:recordSet', source: 'cr:source', extract: 'cr:extract', column: 'cr:column', key: 'cr:key', isArray: 'cr:isArray' },
    '@type': 'sc:Dataset', conformsTo: 'http://mlcommons.org/croissant/1.1', name: 'x', description: 'y', license: 'https://spdx.org/licenses/MIT.html',
    url: 'https://example.org/x', creator: { '@type': 'sc:Person', name: 'Ann' }, datePublished: '2026-11-25', version: '1.0.0', citeAs: '@misc{x}',
    distribution: [file],
    recordSet: [{ '@type': 'cr:RecordSet', '@id': 'train', field: [{ '@type': 'cr:Field', '@id': 'train/id', dataType: 'sc:Text', source: { fileObject: { '@id': 'data/train.jsonl' }, extract: { column: 'id' } } }] }],
  };

  it('accepts a minimal valid description and names what a broken one lacks', () => {
    expect(croissantProblems(minimal)).toEqual([]);
    const { url: _, ...noUrl } = minimal;
    expect(croissantProblems({ ...noUrl, 'rai:annotationProtocol': 'x', conformsTo: 'http://mlcommons.org/croissant/1.0',
      distribution: [{ ...file, sha256: 'short' }],
      recordSet: [{ ...minimal.recordSet[0], field: [{ ...minimal.recordSet[0]!.field[0], '@id': 'other/id', source: { fileObject: { '@id': 'nowhere' }, extract: {} } }] }] })).toEqual([
      'conformsTo: must include http://mlcommons.org/croissant/1.1',
      'url: expected one absolute URL',
      'rai:annotationProtocol: not a property of the RAI vocabulary',
      'distribution[0].sha256: expected 64 hex digits',
      'recordSet[0].field[0]: @id should start with its record set\'s @id and "/"',
      'recordSet[0].field[0].source: must reference a FileObject or FileSet of the distribution',
      'recordSet[0].field[0].source.extract: expected one of column, jsonPath, fileProperty',
    ]);
  });

  it('checks each listed file\'s hash and size, and that every file of the folder but croissant.json is listed', () => {
    const folder = { 'README.md': '# x\n', 'data/train.jsonl': '{}\n', 'data/train.parquet': 'PAR1', 'data/extra.jsonl': '{}\n', 'croissant.json': '{}' };
    const files = new Map(Object.entries(folder).map(([path, text]) => [path, Buffer.from(text)]));
    const listed = (path: string) => ({ ...file, '@id': path, contentUrl: path, contentSize: `${files.get(path)!.length} B`, sha256: crypto.createHash('sha256').update(files.get(path)!).digest('hex') });
    const all = ['README.md', 'data/train.jsonl', 'data/train.parquet', 'data/extra.jsonl'].map(listed);
    expect(hashProblems({ distribution: all }, files)).toEqual([]);
    expect(hashProblems({ distribution: all.filter((f) => f.contentUrl !== 'data/extra.jsonl') }, files)).toEqual(['data/extra.jsonl: in the folder but not in the distribution']);
    expect(hashProblems({ distribution: [{ ...all[0]!, sha256: 'b'.repeat(64), contentSize: '1 B' }, ...all.slice(1), { ...file, '@id': 'gone', contentUrl: 'data/gone.jsonl' }] }, files)).toEqual([
      'README.md: sha256 does not match the file',
      'README.md: contentSize is not the file\'s size',
      'data/gone.jsonl: listed but not in the folder',
    ]);
  });

  it('refuses a card whose configs miss a data file or name one that is not there', () => {
    const files = new Map([['data/train.jsonl', Buffer.from('{}\n')], ['data/test.jsonl', Buffer.from('{}\n')]]);
    const readme = ['---', 'license: mit', 'language: [en]', 'task_categories: [text-retrieval]', 'size_categories: [1K<n<10K]',
      'annotations_creators: [found]', 'language_creators: [found]', 'source_datasets: [original]', 'pretty_name: x',
      'configs:', '- config_name: default', '  data_files:', '  - split: train', '    path: data/train.jsonl', '  - split: val', '    path: data/val.jsonl', '---', '', '# x'].join('\n');
    expect(hfCardProblems(readme, files)).toEqual([
      'configs.data_files: data/val.jsonl is not in the folder',
      'data/test.jsonl: not listed in configs',
      'size_categories: 1K<n<10K does not hold 1 rows',
    ]);
    expect(hfCardProblems('# no front matter', files)).toEqual(['README.md: no YAML front matter between --- lines']);
  });
});
