import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { primekgSource } from '../../../lib/ingest/readers/primekg';
import { BAD_UTF8, countBy, dataFile, drain, jsonError, scratch, thrownIssue, type Drained } from './helpers';

const FULL_HEADER = 'relation,display_relation,x_index,x_id,x_type,x_name,x_source,y_index,y_id,y_type,y_name,y_source\n';
const SUBSET_HEADER = 'display_relation,x_index,x_type,x_name,y_index,y_type,y_name\n';

describe('primekgSource on the real kg_style.csv', () => {
  let kgFile: string;
  let rows: Record<string, string>[];
  /** node_index -> type, from both endpoint columns, counted without the reader. */
  let expectedTypes: Map<string, string>;
  let got: Drained;

  beforeAll(async () => {
    kgFile = dataFile('primekg-ibd', 'kg_style.csv');
    rows = parse(fs.readFileSync(kgFile), { columns: true }) as Record<string, string>[];
    expectedTypes = new Map();
    for (const r of rows) {
      expectedTypes.set(r.x_index!, r.x_type!);
      expectedTypes.set(r.y_index!, r.y_type!);
    }
    got = await drain(primekgSource([kgFile]));
  });

  it('yields each distinct x_index / y_index once, with its type', () => {
    expect(got.entityIssues).toEqual([]);
    expect(expectedTypes.size).toBe(3426);
    expect(got.entities).toHaveLength(expectedTypes.size);
    expect(new Map(got.entities.map((e) => [e.externalId, e.type]))).toEqual(expectedTypes);
    expect(countBy(got.entities, (e) => e.type)).toEqual({
      biological_process: 1642,
      drug: 835,
      molecular_function: 324,
      pathway: 308,
      cellular_component: 207,
      'gene/protein': 103,
      disease: 7,
    });
    // First seen as the y of line 2; the column subset carries no source ids.
    expect(got.entities.find((e) => e.externalId === '37784')).toEqual({
      externalId: '37784',
      type: 'disease',
      name: 'Crohn disease',
      aliases: [],
      document: {},
      at: { file: 'kg_style.csv', line: 2 },
    });
  });

  it('yields one edge a row, named by display_relation', () => {
    expect(got.edgeIssues).toEqual([]);
    expect(got.edges).toHaveLength(12752);
    expect(rows).toHaveLength(12752);
    const relations = countBy(got.edges, (e) => e.relation);
    expect(relations).toEqual(countBy(rows, (r) => r.display_relation!));
    expect(relations).toEqual({ 'interacts with': 10144, transporter: 1140, target: 776, 'associated with': 620, enzyme: 64, carrier: 8 });
    expect(got.edges[0]).toEqual({ source: '144', relation: 'associated with', target: '37784', properties: null, at: { file: 'kg_style.csv', line: 2 } });
  });

  it('takes entity text from the text-graph nodes.jsonl', async () => {
    const nodesFile = dataFile('primekg-ibd', 'nodes.jsonl');
    const attrs = new Map(
      fs.readFileSync(nodesFile, 'utf8').trim().split('\n').map((l) => {
        const n = JSON.parse(l) as { node_index: number; node_attr: string };
        return [String(n.node_index), n.node_attr] as const;
      }),
    );
    const withText = await drain(primekgSource([kgFile, nodesFile]));
    expect(withText.entityIssues).toEqual([]);
    expect(withText.entities).toHaveLength(3426);
    expect(withText.entities.filter((e) => e.document.description !== attrs.get(e.externalId))).toEqual([]);
    const crohn = withText.entities.find((e) => e.externalId === '37784')!;
    expect(Object.keys(crohn.document)).toEqual(['description']);
    expect(crohn.document.description).toMatch(/^Crohn disease belongs to disease category\. A gastrointestinal disorder/);
    expect(withText.edges).toHaveLength(12752);
  });

  it('throws an IngestIssue for a file with another header (the text-graph edges.csv)', async () => {
    const source = primekgSource([dataFile('primekg-ibd', 'edges.csv')]);
    expect(await thrownIssue(() => source.entities())).toBe(
      `edges.csv:1: expected the PrimeKG header "${FULL_HEADER.trim()}" or "${SUBSET_HEADER.trim()}", found "head_id,head_type,relation,tail_type,tail_id"`,
    );
  });
});

describe('primekgSource on the full kg.csv header', () => {
  const write = scratch();
  const kg = () =>
    write(
      'kg.csv',
      FULL_HEADER,
      'protein_protein,ppi,0,9796,gene/protein,PHYHIP,NCBI,8889,56992,gene/protein,KIF15,NCBI\n',
      'indication,indication,14034,DB01222,drug,Budesonide,DrugBank,37784,5640,disease,Crohn disease,MONDO_grouped\n',
      'drug_protein,,14034,DB01222,drug,Budesonide,DrugBank,2567,2908,gene/protein,NR3C1,NCBI\n',
    );

  it('keeps x_id and x_source in the document and falls back to relation', async () => {
    const got = await drain(primekgSource([kg()]));
    expect(got.entityIssues).toEqual([]);
    expect(got.entities.map((e) => [e.externalId, e.type, e.name, e.document])).toEqual([
      ['0', 'gene/protein', 'PHYHIP', { source_id: '9796', source: 'NCBI' }],
      ['8889', 'gene/protein', 'KIF15', { source_id: '56992', source: 'NCBI' }],
      ['14034', 'drug', 'Budesonide', { source_id: 'DB01222', source: 'DrugBank' }],
      ['37784', 'disease', 'Crohn disease', { source_id: '5640', source: 'MONDO_grouped' }],
      ['2567', 'gene/protein', 'NR3C1', { source_id: '2908', source: 'NCBI' }],
    ]);
    expect(got.edgeIssues).toEqual([]);
    expect(got.edges.map((e) => [e.source, e.relation, e.target, e.at.line])).toEqual([
      ['0', 'ppi', '8889', 2],
      ['14034', 'indication', '37784', 3],
      ['14034', 'drug_protein', '2567', 4],
    ]);
  });

  it('puts a text file\'s fields before the source fields, and reports its bad lines', async () => {
    const text = write(
      'text.jsonl',
      '{"id": 14034, "description": "A glucocorticoid.", "indications": ["Crohn disease", "asthma"]}\n',
      '{"id": "abc", "description": "?"}\n',
      '{"id": 14034, "description": "again"}\n',
      '{"id": 37784, "description": \n',
      '{"node_index": 37784, "node_name": "Crohn disease"}\n',
      '{"node_index": 2567, "node_attr": "NR3C1 belongs to gene/protein category. Glucocorticoid receptor."}\n',
      '{"id": 99999999, "description": "a node no row mentions"}\n',
    );
    const got = await drain(primekgSource([kg(), text]));
    expect(got.entityIssues).toEqual([
      'text.jsonl:2: field "id" must be a PrimeKG node index (a non-negative integer)',
      'text.jsonl:3: text for node 14034 is given twice',
      `text.jsonl:4: invalid JSON: ${jsonError('{"id": 37784, "description": ')}`,
      'text.jsonl:5: field "node_attr" must be a string',
    ]);
    const documents = Object.fromEntries(got.entities.map((e) => [e.externalId, e.document]));
    expect(documents['14034']).toEqual({ description: 'A glucocorticoid.', indications: ['Crohn disease', 'asthma'], source_id: 'DB01222', source: 'DrugBank' });
    expect(Object.keys(documents['14034']!)).toEqual(['description', 'indications', 'source_id', 'source']);
    expect(documents['2567']).toEqual({ description: 'NR3C1 belongs to gene/protein category. Glucocorticoid receptor.', source_id: '2908', source: 'NCBI' });
    expect(documents['37784']).toEqual({ source_id: '5640', source: 'MONDO_grouped' });
    expect(got.entities).toHaveLength(5);
  });
});

describe('primekgSource on bad rows', () => {
  const write = scratch();

  it('reports each bad row once, in pass 1, and skips its edge', async () => {
    const kg = write(
      'kg.csv',
      SUBSET_HEADER,
      'indication,14034,drug,Budesonide,37784,disease,Crohn disease\n',
      'indication,14034,drug,Budesonide (oral),37784,disease,Crohn disease\n',
      'indication,14034,disease,Budesonide,37784,disease,Crohn disease\n',
      'indication,abc,drug,Budesonide,37784,disease,Crohn disease\n',
      'indication,14035,drug,Mesalazine,37784,,Crohn disease\n',
      ',14035,drug,Mesalazine,37784,disease,Crohn disease\n',
      'indication,14035,drug,Mesalazine,37784\n',
      'indication,14035,drug,', BAD_UTF8, ',37784,disease,Crohn disease\n',
      'contraindication,37784,disease,Crohn disease,14036,drug,Prednisone\n',
      'indication,14037,drug,Infliximab,37785,disease,ulcerative colitis\n',
      'indication,14037,drug,Infliximab,37785,disease,Ulcerative colitis\n',
    );
    const got = await drain(primekgSource([kg]));
    expect(got.entityIssues).toEqual([
      'kg.csv:3: node 14034 has name "Budesonide (oral)" here but "Budesonide" where it was first seen',
      'kg.csv:4: node 14034 has type "disease" here but "drug" where it was first seen',
      'kg.csv:5: field "x_index" must be a non-negative integer, found "abc"',
      'kg.csv:6: field "y_type" must not be empty',
      'kg.csv:7: field "display_relation" must not be empty',
      'kg.csv:8: expected 7 fields, found 5',
      'kg.csv:9: not valid UTF-8 text',
      'kg.csv:12: node 37785 has name "Ulcerative colitis" here but "ulcerative colitis" where it was first seen',
    ]);
    expect(got.entities.map((e) => [e.externalId, e.name, e.at.line])).toEqual([
      ['14034', 'Budesonide', 2],
      ['37784', 'Crohn disease', 2],
      ['14036', 'Prednisone', 10],
      ['14037', 'Infliximab', 11],
      ['37785', 'ulcerative colitis', 11],
    ]);
    expect(got.edgeIssues).toEqual([]);
    expect(got.edges.map((e) => [e.source, e.relation, e.target, e.at.line])).toEqual([
      ['14034', 'indication', '37784', 2],
      ['37784', 'contraindication', '14036', 10],
      ['14037', 'indication', '37785', 11],
    ]);
  });

  it('names both relation columns when the full header leaves them empty', async () => {
    const kg = write('kg.csv', FULL_HEADER, ',,0,9796,gene/protein,PHYHIP,NCBI,8889,56992,gene/protein,KIF15,NCBI\n');
    const got = await drain(primekgSource([kg]));
    expect(got.entityIssues).toEqual(['kg.csv:2: fields "display_relation" and "relation" are both empty']);
    expect(got.edges).toEqual([]);
  });

  it('refuses a missing kg file or an unrecognised file', () => {
    const text = write('text.jsonl', '');
    expect(() => primekgSource([text])).toThrow('PrimeKG format: expected exactly one kg file (.csv), got 0');
    const kg = write('kg.csv', SUBSET_HEADER);
    expect(() => primekgSource([kg, write('kg.tsv', '')])).toThrow('PrimeKG format: kg.tsv is neither the kg file (.csv) nor entity text (.jsonl)');
  });
});
