import { describe, expect, it } from 'vitest';
import { IngestIssue } from '../../lib/ingest/source';
import { nativeSource } from '../../lib/ingest/readers/native';
import { BAD_UTF8, drain, jsonError, scratch, thrownIssue } from './readers/helpers';

describe('nativeSource', () => {
  const write = scratch();
  const entities = () =>
    write(
      'entities.jsonl',
      '\ufeff{"id": "DB01222", "type": "drug", "name": "Budesonide", "aliases": ["Entocort"], "document": {"description": "A glucocorticoid.", "routes": ["oral", "inhaled"]}}\r\n',
      '{"id": 37784, "type": " disease ", "name": "Crohn disease"}\n',
      '\n',
      '{"id": " 5640 ", "type": "disease", "name": "ulcerative colitis", "document": {}}\n',
    );

  it('reads entities JSONL and edges TSV with properties', async () => {
    const edges = write(
      'edges.tsv',
      'source\trelation\ttarget\tproperties\n',
      'DB01222\tindication\t37784\t{"source": "DrugBank", "approved": true}\n',
      'DB01222\tindication\t5640\t\n',
      '37784\tassociated with\t5640\t\n',
    );
    const source = nativeSource([entities(), edges]);
    const got = await drain(source);
    expect(got.entityIssues).toEqual([]);
    expect(got.entities).toEqual([
      {
        externalId: 'DB01222',
        type: 'drug',
        name: 'Budesonide',
        aliases: ['Entocort'],
        document: { description: 'A glucocorticoid.', routes: ['oral', 'inhaled'] },
        at: { file: 'entities.jsonl', line: 1 },
      },
      { externalId: '37784', type: 'disease', name: 'Crohn disease', aliases: [], document: {}, at: { file: 'entities.jsonl', line: 2 } },
      { externalId: '5640', type: 'disease', name: 'ulcerative colitis', aliases: [], document: {}, at: { file: 'entities.jsonl', line: 4 } },
    ]);
    expect(got.edgeIssues).toEqual([]);
    expect(got.edges).toEqual([
      { source: 'DB01222', relation: 'indication', target: '37784', properties: { source: 'DrugBank', approved: true }, at: { file: 'edges.tsv', line: 2 } },
      { source: 'DB01222', relation: 'indication', target: '5640', properties: null, at: { file: 'edges.tsv', line: 3 } },
      { source: '37784', relation: 'associated with', target: '5640', properties: null, at: { file: 'edges.tsv', line: 4 } },
    ]);
    expect(source.progress().done).toBe(source.progress().total);
  });

  it('reads edges CSV with quoted fields and no properties column', async () => {
    const edges = write('edges.csv', 'source,relation,target\n', 'DB01222,"indication, off-label",37784\n', '"DB01222",indication,"5640"\n');
    const got = await drain(nativeSource([entities(), edges]));
    expect(got.edgeIssues).toEqual([]);
    expect(got.edges.map((e) => [e.source, e.relation, e.target, e.properties, e.at.line])).toEqual([
      ['DB01222', 'indication, off-label', '37784', null, 2],
      ['DB01222', 'indication', '5640', null, 3],
    ]);
  });

  it('reports each bad entity line and keeps the good ones', async () => {
    const file = write(
      'entities.jsonl',
      '{"id": "DB01222", "type": "drug", "name": "Budesonide"}\n',
      '{"id": "DB00244", "type": "drug",\n',
      '"DB00244"\n',
      '{"type": "drug", "name": "Mesalazine"}\n',
      '{"id": "", "type": "drug", "name": "Mesalazine"}\n',
      '{"id": 1.5, "type": "drug", "name": "Mesalazine"}\n',
      '{"id": "DB00244", "type": " ", "name": "Mesalazine"}\n',
      '{"id": "DB00244", "type": "drug", "name": null}\n',
      '{"id": "DB00244", "type": "drug", "name": "Mesalazine", "aliases": "5-ASA"}\n',
      '{"id": "DB00244", "type": "drug", "name": "Mesalazine", "document": ["anti-inflammatory"]}\n',
      '{"id": "DB00244", "type": "drug", "name": "', BAD_UTF8, '"}\n',
      '{"id": "DB00244", "type": "drug", "name": "Mesalazine"}\n',
    );
    const got = await drain(nativeSource([file]));
    expect(got.entityIssues).toEqual([
      `entities.jsonl:2: invalid JSON: ${jsonError('{"id": "DB00244", "type": "drug",')}`,
      'entities.jsonl:3: expected a JSON object',
      'entities.jsonl:4: field "id" must be a non-empty string or an integer',
      'entities.jsonl:5: field "id" must be a non-empty string or an integer',
      'entities.jsonl:6: field "id" must be a non-empty string or an integer',
      'entities.jsonl:7: field "type" must be a non-empty string',
      'entities.jsonl:8: field "name" must be a string',
      'entities.jsonl:9: field "aliases" must be a list of strings',
      'entities.jsonl:10: field "document" must be a JSON object',
      'entities.jsonl:11: not valid UTF-8 text',
    ]);
    expect(got.entities.map((e) => [e.externalId, e.at.line])).toEqual([
      ['DB01222', 1],
      ['DB00244', 12],
    ]);
    expect(got.edges).toEqual([]);
  });

  it('reports each bad edge row and keeps the good ones', async () => {
    const edges = write(
      'edges.tsv',
      'source\trelation\ttarget\tproperties\n',
      'DB01222\tindication\n',
      'DB01222\tindication\t37784\t{}\textra\n',
      'DB01222\t\t37784\t\n',
      'DB01222\tindication\t37784\t{"approved": tru}\n',
      'DB01222\tindication\t37784\t[1, 2]\n',
      'DB01222\t', BAD_UTF8, '\t37784\t\n',
      'DB01222\tindication\t37784\t\n',
    );
    const got = await drain(nativeSource([entities(), edges]));
    expect(got.edgeIssues).toEqual([
      'edges.tsv:2: expected 4 fields, found 2',
      'edges.tsv:3: expected 4 fields, found 5',
      'edges.tsv:4: source, relation and target must not be empty',
      'edges.tsv:5: properties must be a JSON object',
      'edges.tsv:6: properties must be a JSON object',
      'edges.tsv:7: not valid UTF-8 text',
    ]);
    expect(got.edges.map((e) => e.at.line)).toEqual([8]);

    // In batches (as the importer reads large files), the same records and issues in the same order.
    const batched: string[] = [];
    for await (const batch of nativeSource([entities(), edges]).edgeBatches!()) {
      for (const item of batch) batched.push(item instanceof IngestIssue ? item.toString() : `line ${item.at.line}`);
    }
    expect(batched).toEqual([...got.edgeIssues, 'line 8']);
  });

  it('throws an IngestIssue for a missing or wrong edges header', async () => {
    const headless = write('edges.tsv', 'DB01222\tindication\t37784\n');
    expect(await thrownIssue(() => nativeSource([entities(), headless]).edges())).toBe(
      'edges.tsv:1: expected the header "source, relation, target" and optionally "properties"',
    );
    const extra = write('edges.csv', 'source,relation,target,weight\nDB01222,indication,37784,1\n');
    expect(await thrownIssue(() => nativeSource([entities(), extra]).edges())).toBe(
      'edges.csv:1: expected the header "source, relation, target" and optionally "properties"',
    );
  });

  it('throws an IngestIssue where a CSV quote is never closed', async () => {
    const edges = write('edges.csv', 'source,relation,target\n', 'DB01222,"indication\n', 'DB01222,indication,37784\n');
    expect(await thrownIssue(() => nativeSource([entities(), edges]).edges())).toBe(
      'edges.csv:3: unreadable CSV: Quote Not Closed: the parsing is finished with an opening quote at line 3',
    );
  });

  it('refuses a missing entities file or an unrecognised file', () => {
    const edges = write('edges.tsv', 'source\trelation\ttarget\n');
    expect(() => nativeSource([edges])).toThrow('Native format: no entities file (.jsonl) given');
    expect(() => nativeSource([entities(), write('entities.json', '[]')])).toThrow('Native format: entities.json is neither entities (.jsonl) nor edges (.tsv, .csv)');
  });
});
