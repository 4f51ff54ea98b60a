import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { textGraphSource } from '../../../lib/ingest/readers/text-graph';
import { BAD_UTF8, countBy, dataFile, drain, jsonError, scratch, thrownIssue, type Drained } from './helpers';

interface Node {
  node_id: string;
  node_attr: string;
  node_index: number;
  node_name: string;
  node_type: string;
}

describe('textGraphSource on the real PrimeKG IBD subgraph', () => {
  let nodesFile: string;
  let edgesFile: string;
  let nodes: Node[];
  let rows: Record<string, string>[];
  let got: Drained;

  beforeAll(async () => {
    nodesFile = dataFile('primekg-ibd', 'nodes.jsonl');
    edgesFile = dataFile('primekg-ibd', 'edges.csv');
    // Counted here independently of the reader: plain JSON.parse and csv-parse's synchronous API.
    nodes = fs.readFileSync(nodesFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Node);
    rows = parse(fs.readFileSync(edgesFile), { columns: true }) as Record<string, string>[];
    got = await drain(textGraphSource([nodesFile, edgesFile]));
  });

  it('yields every node once, by node_index, in its 7 types, without issues', () => {
    expect(got.entityIssues).toEqual([]);
    expect(got.entities).toHaveLength(3426);
    expect(new Set(got.entities.map((e) => e.externalId))).toEqual(new Set(nodes.map((n) => String(n.node_index))));
    const types = countBy(got.entities, (e) => e.type);
    expect(types).toEqual(countBy(nodes, (n) => n.node_type));
    expect(types).toEqual({ biological_process: 1642, drug: 835, molecular_function: 324, pathway: 308, cellular_component: 207, 'gene/protein': 103, disease: 7 });
  });

  it('keeps node_attr whole as the description and node_id as source_id', () => {
    const crohn = got.entities.find((e) => e.name === 'Crohn disease')!;
    expect(crohn).toMatchObject({ externalId: '37784', type: 'disease', aliases: [], at: { file: 'nodes.jsonl', line: 943 } });
    expect(Object.keys(crohn.document)).toEqual(['description', 'source_id']);
    expect(crohn.document.source_id).toBe('Crohn disease_(37784)');
    expect(crohn.document.description).toMatch(/^Crohn disease belongs to disease category\. A gastrointestinal disorder characterized by chronic inflammation involving all layers of the intestinal wall/);
    const budesonide = got.entities.find((e) => e.externalId === '14034')!;
    expect(budesonide.name).toBe('Budesonide');
    expect(budesonide.document.description).toBe(nodes.find((n) => n.node_index === 14034)!.node_attr);
  });

  it('yields all 12,752 edges in 6 relations, endpoints mapped to node_index', () => {
    expect(got.edgeIssues).toEqual([]);
    expect(got.edges).toHaveLength(12752);
    const relations = countBy(got.edges, (e) => e.relation);
    expect(relations).toEqual(countBy(rows, (r) => r.relation!));
    expect(relations).toEqual({ 'interacts with': 10144, transporter: 1140, target: 776, 'associated with': 620, enzyme: 64, carrier: 8 });
    expect(got.edges[0]).toEqual({ source: '144', relation: 'associated with', target: '37784', properties: null, at: { file: 'edges.csv', line: 2 } });
    const ids = new Set(got.entities.map((e) => e.externalId));
    expect(got.edges.filter((e) => !ids.has(e.source) || !ids.has(e.target))).toEqual([]);
  });

  it('maps quoted node_ids holding commas', () => {
    const zinc = 'Zinc sulfate, unspecified form_(14491)';
    const expected = rows.filter((r) => r.tail_id === zinc).length;
    expect(expected).toBeGreaterThan(0);
    expect(got.edges.filter((e) => e.target === '14491')).toHaveLength(expected);
    expect(got.edges.find((e) => e.at.line === 1614)).toEqual({ source: '2057', relation: 'target', target: '14491', properties: null, at: { file: 'edges.csv', line: 1614 } });
  });
});

describe('textGraphSource on bad input', () => {
  const write = scratch();
  const node = (index: number, name: string, type = 'drug', id = `${name}_(${index})`) =>
    JSON.stringify({ node_id: id, node_attr: `${name} belongs to ${type} category. A test node.`, node_index: index, node_name: name, node_type: type });
  const header = 'head_id,head_type,relation,tail_type,tail_id\n';
  const goodEdges = () => write('edges.csv', header, 'Budesonide_(14034),drug,indication,disease,Crohn disease_(37784)\n');

  it('reports bad node lines and keeps the good ones', async () => {
    const nodes = write(
      'nodes.jsonl',
      `${node(14034, 'Budesonide')}\n`,
      '{"node_id": "Mesalazine_(14040)", "node_index": 14040,\n',
      '["not", "an", "object"]\n',
      `${JSON.stringify({ node_id: 'X_(1)', node_attr: 'x', node_index: 1, node_name: 'X' })}\n`,
      `${JSON.stringify({ node_id: 'X_(2)', node_attr: 'x', node_index: -2, node_name: 'X', node_type: 'drug' })}\n`,
      `${node(15, 'Infliximab', 'drug', 'Infliximab_(16)')}\n`,
      `${node(17, 'Mesalazine', 'drug', 'Mesalazine')}\n`,
      '{"node_name": "', BAD_UTF8, '"}\n',
      '\n',
      `${node(37784, 'Crohn disease', 'disease')}\n`,
    );
    const got = await drain(textGraphSource([nodes, goodEdges()]));
    expect(got.entities.map((e) => e.externalId)).toEqual(['14034', '37784']);
    expect(got.entities[1]!.at).toEqual({ file: 'nodes.jsonl', line: 10 });
    expect(got.entityIssues).toEqual([
      `nodes.jsonl:2: invalid JSON: ${jsonError('{"node_id": "Mesalazine_(14040)", "node_index": 14040,')}`,
      'nodes.jsonl:3: expected a JSON object',
      'nodes.jsonl:4: field "node_type" must be a non-empty string',
      'nodes.jsonl:5: field "node_index" must be a non-negative integer',
      'nodes.jsonl:6: field "node_id" "Infliximab_(16)" does not end with "_(15)", the node_index',
      'nodes.jsonl:7: field "node_id" "Mesalazine" does not end with "_(17)", the node_index',
      'nodes.jsonl:8: not valid UTF-8 text',
    ]);
    expect(got.edges).toEqual([{ source: '14034', relation: 'indication', target: '37784', properties: null, at: { file: 'edges.csv', line: 2 } }]);
  });

  it('reports malformed node_ids, wrong field counts, empty relations and bad UTF-8 in edges', async () => {
    const nodes = write('nodes.jsonl', `${node(14034, 'Budesonide')}\n${node(37784, 'Crohn disease', 'disease')}\n`);
    const edges = write(
      'edges.csv',
      header,
      'Budesonide,drug,indication,disease,Crohn disease_(37784)\n',
      'Budesonide_(14034),drug,indication,disease,Crohn disease_(x)\n',
      'Budesonide_(14034),drug,indication,disease\n',
      'Budesonide_(14034),drug,,disease,Crohn disease_(37784)\n',
      'Budesonide_(14034),drug,', BAD_UTF8, ',disease,Crohn disease_(37784)\n',
      '"Crohn disease_(37784)",disease,indication,drug,Budesonide_(14034)\n',
    );
    const got = await drain(textGraphSource([nodes, edges]));
    expect(got.edgeIssues).toEqual([
      'edges.csv:2: field "head_id" "Budesonide" does not end with "_(<node_index>)"',
      'edges.csv:3: field "tail_id" "Crohn disease_(x)" does not end with "_(<node_index>)"',
      'edges.csv:4: expected 5 fields, found 4',
      'edges.csv:5: field "relation" must not be empty',
      'edges.csv:6: not valid UTF-8 text',
    ]);
    expect(got.edges).toEqual([{ source: '37784', relation: 'indication', target: '14034', properties: null, at: { file: 'edges.csv', line: 7 } }]);
  });

  it('throws an IngestIssue for a wrong edges header', async () => {
    const nodes = write('nodes.jsonl', `${node(14034, 'Budesonide')}\n`);
    const edges = write('edges.csv', 'source,relation,target\n14034,indication,37784\n');
    const source = textGraphSource([nodes, edges]);
    expect(await thrownIssue(() => source.edges())).toBe(
      'edges.csv:1: expected the header "head_id,head_type,relation,tail_type,tail_id", found "source,relation,target"',
    );
  });

  it('refuses a missing, doubled or unrecognised file', () => {
    const nodes = write('nodes.jsonl', `${node(14034, 'Budesonide')}\n`);
    expect(() => textGraphSource([nodes])).toThrow('Text-graph format: expected exactly one edges (.csv) file, got none');
    expect(() => textGraphSource([goodEdges()])).toThrow('Text-graph format: expected exactly one nodes (.jsonl) file, got none');
    const more = write('more.jsonl', '');
    expect(() => textGraphSource([nodes, more, goodEdges()])).toThrow('Text-graph format: expected exactly one nodes (.jsonl) file, got nodes.jsonl, more.jsonl');
    const readme = write('README.md', '');
    expect(() => textGraphSource([nodes, goodEdges(), readme])).toThrow('Text-graph format: README.md is neither nodes (.jsonl) nor edges (.csv)');
  });
});
