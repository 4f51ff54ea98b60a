import { describe, expect, it } from 'vitest';
import { triplesSource } from '../../../lib/ingest/readers/triples';
import { BAD_UTF8, drain, scratch } from './helpers';

// Invented CoDEx/Wikidata-style data: Douglas Adams, his country, occupation and birthplace.
describe('triplesSource', () => {
  const write = scratch();
  const train = () =>
    write(
      'train.txt',
      'Q42\tP27\tQ145\n',
      'Q42\tP106\tQ36180\n',
      'Q42\tP19\tQ350\n',
    );
  const valid = () => write('valid.txt', 'Q350\tP17\tQ145\r\n', '\n', 'Q1339\tP106\tQ36834\n');
  const labels = () =>
    write(
      'entity_labels.tsv',
      'Q42\tDouglas Adams\tEnglish writer and humorist\n',
      'Q145\tUnited Kingdom\tcountry in north-west Europe\n',
      'Q36180\twriter\t\n',
      'Q1339\tJohann Sebastian Bach\n',
      'P27\tcountry of citizenship\n',
      'P106\toccupation\n',
    );
  const types = () => write('entity_types.tsv', 'Q42\thuman\n', 'Q145\tcountry\n', 'Q350\tcity\n', 'Q1339\thuman\n');

  it('implies entities from heads and tails, named and typed by the label and type files', async () => {
    const got = await drain(triplesSource([train(), valid(), labels(), types()]));
    expect(got.entityIssues).toEqual([]);
    expect(got.entities.map((e) => [e.externalId, e.type, e.name, e.document, `${e.at.file}:${e.at.line}`])).toEqual([
      ['Q42', 'human', 'Douglas Adams', { description: 'English writer and humorist' }, 'train.txt:1'],
      ['Q145', 'country', 'United Kingdom', { description: 'country in north-west Europe' }, 'train.txt:1'],
      ['Q36180', 'entity', 'writer', {}, 'train.txt:2'],
      ['Q350', 'city', 'Q350', {}, 'train.txt:3'],
      ['Q1339', 'human', 'Johann Sebastian Bach', {}, 'valid.txt:3'],
      ['Q36834', 'entity', 'Q36834', {}, 'valid.txt:3'],
    ]);
    expect(got.edgeIssues).toEqual([]);
    expect(got.edges.map((e) => [e.source, e.relation, e.target, e.properties, `${e.at.file}:${e.at.line}`])).toEqual([
      ['Q42', 'country of citizenship', 'Q145', null, 'train.txt:1'],
      ['Q42', 'occupation', 'Q36180', null, 'train.txt:2'],
      ['Q42', 'P19', 'Q350', null, 'train.txt:3'],
      ['Q350', 'P17', 'Q145', null, 'valid.txt:1'],
      ['Q1339', 'occupation', 'Q36834', null, 'valid.txt:3'],
    ]);
  });

  it('uses ids as names and the default type without label or type files', async () => {
    const got = await drain(triplesSource([train()], { defaultType: 'item' }));
    expect(got.entities.map((e) => [e.externalId, e.type, e.name])).toEqual([
      ['Q42', 'item', 'Q42'],
      ['Q145', 'item', 'Q145'],
      ['Q36180', 'item', 'Q36180'],
      ['Q350', 'item', 'Q350'],
    ]);
    expect(got.edges.map((e) => e.relation)).toEqual(['P27', 'P106', 'P19']);
  });

  it('reports each bad triple line once, in pass 1, and skips it', async () => {
    const triples = write(
      'triples.tsv',
      'Q42\tP27\tQ145\n',
      'Q42\tP106\n',
      'Q42\tP106\tQ36180\tQ5\n',
      'Q42\t\tQ36180\n',
      'Q42\tP19\t', BAD_UTF8, '\n',
      'Q42\tP106\tQ36180\n',
    );
    const got = await drain(triplesSource([triples]));
    expect(got.entityIssues).toEqual([
      'triples.tsv:2: expected 3 tab-separated fields (head, relation, tail), found 2',
      'triples.tsv:3: expected 3 tab-separated fields (head, relation, tail), found 4',
      'triples.tsv:4: field "relation" must not be empty',
      'triples.tsv:5: not valid UTF-8 text',
    ]);
    expect(got.entities.map((e) => e.externalId)).toEqual(['Q42', 'Q145', 'Q36180']);
    expect(got.edgeIssues).toEqual([]);
    expect(got.edges.map((e) => e.at.line)).toEqual([1, 6]);
  });

  it('reports bad label and type lines', async () => {
    const badLabels = write(
      'labels.tsv',
      'Q42\tDouglas Adams\n',
      'Q42\tDouglas Noel Adams\n',
      'Q145\tUnited Kingdom\tcountry\textra\n',
      'Q36180\n',
      '\tnameless\n',
    );
    const badTypes = write('types.tsv', 'Q42\thuman\n', 'Q42\twriter\n', 'Q145\t\n');
    const got = await drain(triplesSource([train(), badLabels, badTypes]));
    expect(got.entityIssues).toEqual([
      'labels.tsv:2: Q42 is given a label twice',
      'labels.tsv:3: expected 2 to 3 tab-separated fields (id, label, description), found 4',
      'labels.tsv:4: expected 2 to 3 tab-separated fields (id, label, description), found 1',
      'labels.tsv:5: field "id" must not be empty',
      'types.tsv:2: Q42 is given a type twice',
      'types.tsv:3: field "type" must not be empty',
    ]);
    expect(got.entities.map((e) => [e.externalId, e.type, e.name])).toEqual([
      ['Q42', 'human', 'Douglas Adams'],
      ['Q145', 'entity', 'Q145'],
      ['Q36180', 'entity', 'Q36180'],
      ['Q350', 'entity', 'Q350'],
    ]);
  });

  it('refuses files it cannot place', () => {
    expect(() => triplesSource([labels()])).toThrow('Triples format: no triples file (.tsv, .txt) given');
    expect(() => triplesSource([train(), write('triples.csv', '')])).toThrow('Triples format: triples.csv is not a triples file (.tsv, .txt)');
  });
});
