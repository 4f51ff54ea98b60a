import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cypherbenchSource } from '../../../lib/ingest/readers/cypherbench';
import { dataFile, drain, scratch, thrownIssue } from './helpers';

// No CypherBench graph file is in ../shared/data (they are hundreds of MB), so the tests write small ones
// in the same shape, with the labels of the real nba graph (graph_info.json).
const schema = {
  name: 'nba',
  entities: [
    { label: 'Player', description: null, properties: { date_of_birth: 'date', height_cm: 'float', draft_year: 'int', nicknames: 'list[str]' } },
    { label: 'Team', description: null, properties: { inception: 'int', defunct: 'bool' } },
    { label: 'Division', description: null, properties: {} },
    { label: 'Conference', description: null, properties: {} },
    { label: 'Position', description: null, properties: {} },
  ],
  relations: [
    { label: 'playsFor', subj_label: 'Player', obj_label: 'Team', properties: { start_year: 'int', end_year: 'int' } },
    { label: 'partOfDivision', subj_label: 'Team', obj_label: 'Division', properties: {} },
    { label: 'partOfConference', subj_label: 'Division', obj_label: 'Conference', properties: {} },
    { label: 'playsPosition', subj_label: 'Player', obj_label: 'Position', properties: {} },
  ],
};

const lebron = {
  eid: 'Player#Q36159',
  label: 'Player',
  name: 'LeBron James',
  aliases: ['King James', 'LBJ'],
  description: 'American basketball player (born 1984)',
  properties: { date_of_birth: '1984-12-30', height_cm: 206, draft_year: 2003, nicknames: ['King James', 'The Chosen One'] },
  provenance: ['https://en.wikipedia.org/wiki/LeBron_James'],
};

const graph = {
  schema,
  entities: [
    lebron,
    { eid: 'Team#Q121783', label: 'Team', name: 'Los Angeles Lakers', aliases: ['Lakers'], description: 'American professional basketball team', properties: { inception: 1947, defunct: false }, provenance: [] },
    { eid: 'Division#Q1410997', label: 'Division', name: 'Pacific Division', aliases: [], description: null, properties: {}, provenance: [] },
    { eid: 'Conference#Q1426096', label: 'Conference', name: 'Western Conference', aliases: [], description: 'NBA conference', properties: {}, provenance: [] },
    { eid: 'Position#Q462471', label: 'Position', name: 'small forward', aliases: [], description: null, properties: {}, provenance: [] },
  ],
  relations: [
    { rid: '0', label: 'playsFor', subj_id: 'Player#Q36159', obj_id: 'Team#Q121783', properties: { start_year: 2018 }, provenance: [] },
    { rid: '1', label: 'partOfDivision', subj_id: 'Team#Q121783', obj_id: 'Division#Q1410997', properties: {}, provenance: [] },
    { rid: '2', label: 'partOfConference', subj_id: 'Division#Q1410997', obj_id: 'Conference#Q1426096', properties: {}, provenance: [] },
    { rid: '3', label: 'playsPosition', subj_id: 'Player#Q36159', obj_id: 'Position#Q462471', properties: {}, provenance: [] },
  ],
};

describe('cypherbenchSource', () => {
  const write = scratch();

  it('uses only labels of the real nba graph in its fixture', () => {
    const info = JSON.parse(fs.readFileSync(dataFile('cypherbench', 'graph_info.json'), 'utf8')) as Record<string, { relations: { variants: string[] }[] }>;
    const variants = new Set(info.nba!.relations.flatMap((r) => r.variants));
    expect(schema.relations.filter((r) => !variants.has(`${r.label}#${r.subj_label}#${r.obj_label}`))).toEqual([]);
  });

  it('streams entities and relations, checking them against the schema', async () => {
    const file = write('nba.json', JSON.stringify(graph, null, 2));
    const source = cypherbenchSource([file]);
    const got = await drain(source);
    expect(got.entityIssues).toEqual([]);
    expect(got.entities).toHaveLength(5);
    expect(got.entities[0]).toEqual({
      externalId: 'Player#Q36159',
      type: 'Player',
      name: 'LeBron James',
      aliases: ['King James', 'LBJ'],
      document: { description: 'American basketball player (born 1984)', date_of_birth: '1984-12-30', height_cm: 206, draft_year: 2003, nicknames: ['King James', 'The Chosen One'] },
      at: { file: 'nba.json', line: 0 },
    });
    expect(got.entities.map((e) => [e.externalId, e.type, e.name, e.document])).toEqual([
      ['Player#Q36159', 'Player', 'LeBron James', got.entities[0]!.document],
      ['Team#Q121783', 'Team', 'Los Angeles Lakers', { description: 'American professional basketball team', inception: 1947, defunct: false }],
      ['Division#Q1410997', 'Division', 'Pacific Division', {}],
      ['Conference#Q1426096', 'Conference', 'Western Conference', { description: 'NBA conference' }],
      ['Position#Q462471', 'Position', 'small forward', {}],
    ]);
    expect(got.edgeIssues).toEqual([]);
    expect(got.edges.map((e) => [e.source, e.relation, e.target, e.properties])).toEqual([
      ['Player#Q36159', 'playsFor', 'Team#Q121783', { start_year: 2018 }],
      ['Team#Q121783', 'partOfDivision', 'Division#Q1410997', null],
      ['Division#Q1410997', 'partOfConference', 'Conference#Q1426096', null],
      ['Player#Q36159', 'playsPosition', 'Position#Q462471', null],
    ]);
    const size = fs.statSync(file).size;
    expect(source.progress()).toEqual({ done: 2 * size, total: 2 * size });
  });

  it('streams a graph many read chunks long', async () => {
    const players = Array.from({ length: 3000 }, (_, i) => ({ ...lebron, eid: `Player#Q${i}`, name: `Player ${i}` }));
    const plays = players.map((p, i) => ({ rid: String(i), label: 'playsFor', subj_id: p.eid, obj_id: 'Team#Q121783', properties: { start_year: 1950 + (i % 70) } }));
    const file = write('big.json', JSON.stringify({ schema, entities: [...graph.entities, ...players], relations: [...graph.relations, ...plays] }));
    expect(fs.statSync(file).size).toBeGreaterThan(10 * 65536);
    const got = await drain(cypherbenchSource([file]));
    expect([got.entityIssues, got.edgeIssues]).toEqual([[], []]);
    expect(got.entities).toHaveLength(3005);
    expect(got.entities.at(-1)).toMatchObject({ externalId: 'Player#Q2999', name: 'Player 2999', document: { description: lebron.description } });
    expect(got.edges).toHaveLength(3004);
    expect(got.edges.at(-1)).toMatchObject({ source: 'Player#Q2999', relation: 'playsFor', properties: { start_year: 1950 + (2999 % 70) } });
  });

  it('reports property type mismatches and malformed items by eid, rid or position', async () => {
    const player = (eid: string, properties: Record<string, unknown>) => ({ ...lebron, eid, properties });
    const file = write(
      'bad.json',
      JSON.stringify({
        schema,
        entities: [
          player('Player#Q1', { date_of_birth: '1984-13-30' }),
          player('Player#Q2', { date_of_birth: '30/12/1984' }),
          player('Player#Q3', { height_cm: '206' }),
          player('Player#Q4', { draft_year: 2003.5 }),
          player('Player#Q5', { nicknames: ['King James', 23] }),
          { eid: 'Team#Q6', label: 'Team', name: 'Lakers', properties: { defunct: 'false' } },
          { eid: 'Team#Q7', label: 'Team', name: 'Lakers', properties: { arena: 'Crypto.com Arena' } },
          { eid: 'Coach#Q8', label: 'Coach', name: 'JJ Redick', properties: {} },
          { label: 'Team', name: 'Nameless', properties: {} },
          { eid: 'Team#Q10', label: 'Team', properties: {} },
          { eid: 'Team#Q11', label: 'Team', name: 'Lakers', aliases: 'Lakers', properties: {} },
          { eid: 'Team#Q12', label: 'Team', name: 'Lakers', description: 7, properties: {} },
          { eid: 'Team#Q13', label: 'Team', name: 'Lakers', properties: [1947] },
          ['Team#Q14'],
          { eid: 'Team#Q121783', label: 'Team', name: 'Los Angeles Lakers', properties: { inception: 1947 } },
        ],
        relations: [
          { rid: '0', label: 'playsFor', subj_id: 'Player#Q36159', obj_id: 'Team#Q121783', properties: { start_year: '2018' } },
          { rid: '1', label: 'coaches', subj_id: 'Coach#Q8', obj_id: 'Team#Q121783', properties: {} },
          { rid: '2', label: 'playsFor', subj_id: 'Player#Q36159', properties: {} },
          { label: 'playsFor', subj_id: 'Player#Q36159', obj_id: 'Team#Q121783', properties: {} },
          { rid: '4', label: 'playsFor', subj_id: 'Player#Q36159', obj_id: 'Team#Q121783', properties: { start_year: 2018, end_year: null } },
          { rid: '5', label: 'playsFor', subj_id: 'Player#Q36159', obj_id: 'Team#Q121783' },
        ],
      }),
    );
    const got = await drain(cypherbenchSource([file]));
    expect(got.entityIssues).toEqual([
      'bad.json:0: entity "Player#Q1": property "date_of_birth" must be date, found "1984-13-30"',
      'bad.json:0: entity "Player#Q2": property "date_of_birth" must be date, found "30/12/1984"',
      'bad.json:0: entity "Player#Q3": property "height_cm" must be float, found "206"',
      'bad.json:0: entity "Player#Q4": property "draft_year" must be int, found 2003.5',
      'bad.json:0: entity "Player#Q5": property "nicknames" must be list[str], found ["King James",23]',
      'bad.json:0: entity "Team#Q6": property "defunct" must be bool, found "false"',
      'bad.json:0: entity "Team#Q7": property "arena" is not declared for Team in the schema',
      'bad.json:0: entity "Coach#Q8": label "Coach" is not in the schema',
      'bad.json:0: entities[8]: field "eid" must be a non-empty string',
      'bad.json:0: entity "Team#Q10": field "name" must be a string',
      'bad.json:0: entity "Team#Q11": field "aliases" must be a list of strings',
      'bad.json:0: entity "Team#Q12": field "description" must be a string',
      'bad.json:0: entity "Team#Q13": field "properties" must be a JSON object',
      'bad.json:0: entities[13] must be a JSON object',
    ]);
    expect(got.entities.map((e) => e.externalId)).toEqual(['Team#Q121783']);
    expect(got.edgeIssues).toEqual([
      'bad.json:0: relation "0": property "start_year" must be int, found "2018"',
      'bad.json:0: relation "1": label "coaches" is not in the schema',
      'bad.json:0: relation "2": field "obj_id" must be a non-empty string',
      'bad.json:0: relations[3]: field "rid" must be a non-empty string',
      'bad.json:0: relation "4": property "end_year" must be int, found null',
    ]);
    expect(got.edges).toEqual([{ source: 'Player#Q36159', relation: 'playsFor', target: 'Team#Q121783', properties: null, at: { file: 'bad.json', line: 0 } }]);
  });

  it('accepts any declared type of a relation label that joins several label pairs', async () => {
    const art = {
      schema: {
        name: 'art',
        entities: [{ label: 'Painting', properties: {} }, { label: 'Sculpture', properties: {} }, { label: 'Museum', properties: {} }],
        relations: [
          { label: 'displayedAt', subj_label: 'Painting', obj_label: 'Museum', properties: { since: 'int' } },
          { label: 'displayedAt', subj_label: 'Sculpture', obj_label: 'Museum', properties: { since: 'date', room: 'str' } },
        ],
      },
      entities: [],
      relations: [
        { rid: 'a', label: 'displayedAt', subj_id: 'Painting#Q12418', obj_id: 'Museum#Q19675', properties: { since: 1797 } },
        { rid: 'b', label: 'displayedAt', subj_id: 'Sculpture#Q151952', obj_id: 'Museum#Q19675', properties: { since: '1820-04-08', room: 'Salle 345' } },
        { rid: 'c', label: 'displayedAt', subj_id: 'Sculpture#Q151952', obj_id: 'Museum#Q19675', properties: { since: '1820' } },
      ],
    };
    const got = await drain(cypherbenchSource([write('art.json', JSON.stringify(art))]));
    expect(got.edges.map((e) => e.properties)).toEqual([{ since: 1797 }, { since: '1820-04-08', room: 'Salle 345' }]);
    expect(got.edgeIssues).toEqual(['art.json:0: relation "c": property "since" must be int or date, found "1820"']);
  });

  it('throws an IngestIssue for a file without a graph schema (the real nba_mini.json conversion schema)', async () => {
    const source = cypherbenchSource([dataFile('cypherbench', 'nba_mini.json')]);
    expect(await thrownIssue(() => source.entities())).toBe('nba_mini.json:0: no "schema" object: expected a CypherBench graph {"schema", "entities", "relations"}');
  });

  it('throws an IngestIssue for an unknown schema type', async () => {
    const broken = { ...graph, schema: { ...schema, entities: [{ label: 'Team', properties: { inception: 'integer' } }] } };
    const source = cypherbenchSource([write('types.json', JSON.stringify(broken))]);
    expect(await thrownIssue(() => source.entities())).toBe('types.json:0: schema: entities Team: property "inception" has the unknown type "integer"');
  });

  it('reports values nested thousands of levels deep, or very long, without writing them out whole', async () => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    // Written as text: JSON.stringify cannot write the deep value either.
    const text = JSON.stringify({ schema, entities: [{ ...lebron, properties: 'HERE' }], relations: [] })
      .replace('"HERE"', `{"height_cm":${deep},"draft_year":"${'9'.repeat(1000)}"}`);
    const got = await drain(cypherbenchSource([write('deep.json', text)]));
    expect(got.entityIssues).toEqual(['deep.json:0: entity "Player#Q36159": property "height_cm" must be float, found a value nested too deeply to show']);
    const long = await drain(cypherbenchSource([write('long.json', text.replace(`"height_cm":${deep},`, ''))]));
    expect(long.entityIssues).toEqual([`deep.json:0: entity "Player#Q36159": property "draft_year" must be int, found "${'9'.repeat(79)}…`.replace('deep.json', 'long.json')]);
  });

  it('throws an IngestIssue at a JSON syntax error', async () => {
    const text = JSON.stringify(graph);
    const cut = text.indexOf('{"eid":"Team#Q121783"');
    const source = cypherbenchSource([write('cut.json', text.slice(0, cut), '{"eid":"Team#Q121783",,')]);
    expect(await thrownIssue(() => source.entities())).toBe('cut.json:0: unreadable JSON: Parser cannot parse input: expected an object key');
  });

  it('refuses anything but one .json file', () => {
    expect(() => cypherbenchSource([])).toThrow('CypherBench format: expected one graph file (.json), got none');
    const a = write('a.json', '{}');
    expect(() => cypherbenchSource([a, write('b.json', '{}')])).toThrow('CypherBench format: expected one graph file (.json), got a.json, b.json');
    expect(() => cypherbenchSource([write('graph.jsonl', '')])).toThrow('CypherBench format: expected one graph file (.json), got graph.jsonl');
  });
});
