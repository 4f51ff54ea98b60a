import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importKnowledgeBase } from '../../lib/ingest/importer';
import { ImportAborted } from '../../lib/ingest/issues';
import { openSource, type ImportFormat } from '../../lib/ingest/readers';
import { MAX_NESTING } from '../../lib/input';
import { db, openAppDatabase, pool } from '../support/app-database';
import type { TestDatabase } from '../support/test-database';

/**
 * Text PostgreSQL cannot store (a NUL, an unpaired surrogate) and documents nested thousands of levels
 * deep are bad rows in every format, with file, line and why: skipped under `skip`, stopping under `stop`.
 */
const NUL = 'contains a NUL character (U+0000), which PostgreSQL text cannot store';
const SURROGATE = 'contains an unpaired surrogate (half of a UTF-16 pair, such as \\ud800), which PostgreSQL text cannot store';
const DEEP = `is nested more than ${MAX_NESTING} levels deep`;

// JSON text with the escapes as they are in the files: `\u0000` and `\ud800` written out, not as characters.
const nulJson = '"nul \\u0000 here"';
const loneJson = '"lone \\ud800 half"';
const deepJson = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

interface Case {
  format: ImportFormat;
  files: Record<string, string>;
  /** Rows that remain once the bad ones are skipped. */
  entities: number;
  edges: number;
  errors: string[];
}

const cases: Case[] = [
  {
    format: 'native',
    files: {
      'entities.jsonl': [
        '{"id": "a", "type": "t", "name": "A", "document": {"x": "fine"}}',
        `{"id": "b", "type": "t", "name": "B", "document": {"x": ${nulJson}}}`,
        `{"id": "c", "type": "t", "name": "C", "document": ${deepJson(5000)}}`,
        `{"id": "d", "type": "t", "name": ${loneJson}}`,
        `{"id": "e", "type": "t", "name": "E", "document": {"ok": ${deepJson(MAX_NESTING - 1)}}}`,
      ].join('\n'),
      'edges.csv': 'source,relation,target\na,r,e\na,r\0x,e\n',
    },
    entities: 2,
    edges: 1,
    errors: [`entities.jsonl:2: the document ${NUL}`, `entities.jsonl:3: the document ${DEEP}`, `entities.jsonl:4: the name ${SURROGATE}`, `edges.csv:3: the relation ${NUL}`],
  },
  {
    format: 'text-graph',
    files: {
      'nodes.jsonl': [
        '{"node_id": "A_(1)", "node_attr": "fine", "node_index": 1, "node_name": "A", "node_type": "t"}',
        `{"node_id": "B_(2)", "node_attr": ${nulJson}, "node_index": 2, "node_name": "B", "node_type": "t"}`,
        `{"node_id": "C_(3)", "node_attr": "x", "node_index": 3, "node_name": ${loneJson}, "node_type": "t"}`,
        '{"node_id": "D_(4)", "node_attr": "fine", "node_index": 4, "node_name": "D", "node_type": "t"}',
        // A reader's message quoting the bad value: the job keeps it, with the NUL written out.
        '{"node_id": "E\\u0000", "node_attr": "x", "node_index": 5, "node_name": "E", "node_type": "t"}',
      ].join('\n'),
      'edges.csv': 'head_id,head_type,relation,tail_type,tail_id\nA_(1),t,r,t,D_(4)\nA_(1),t,r\0,t,D_(4)\n',
    },
    entities: 2,
    edges: 1,
    errors: [`nodes.jsonl:2: the document ${NUL}`, `nodes.jsonl:3: the name ${SURROGATE}`, 'nodes.jsonl:5: field "node_id" "E\\u0000" does not end with "_(5)", the node_index', `edges.csv:3: the relation ${NUL}`],
  },
  {
    format: 'triples',
    files: {
      'triples.tsv': 'a\tr\tb\nb\tr\0x\ta\nc\tr\ta\n',
      'entity_labels.tsv': 'a\tA\nb\tB\tfine\nc\tC\tbad \0 description\n',
    },
    entities: 2,
    edges: 1,
    // c's first triple names it: its edge then points to an entity that was not loaded.
    errors: [`triples.tsv:3: the document ${NUL}`, `triples.tsv:2: the relation ${NUL}`, 'triples.tsv:3: edge points to unknown entity: source "c"'],
  },
  {
    format: 'primekg',
    files: {
      'kg.csv': 'display_relation,x_index,x_type,x_name,y_index,y_type,y_name\nr,1,t,A,2,t,B\nr,1,t,A,3,t,C\0\nr\0,2,t,B,1,t,A\n',
      'texts.jsonl': `{"id": 2, "deep": ${deepJson(200)}}\n`,
    },
    entities: 1,
    edges: 0,
    errors: [`kg.csv:2: the document ${DEEP}`, `kg.csv:3: the name ${NUL}`, 'kg.csv:2: edge points to unknown entity: target "2"', 'kg.csv:3: edge points to unknown entity: target "3"', `kg.csv:4: the relation ${NUL}`],
  },
  {
    format: 'cypherbench',
    files: {
      'graph.json': JSON.stringify({
        schema: { name: 'g', entities: [{ label: 'P', description: null, properties: { nick: 'str' } }], relations: [{ label: 'knows', subj_label: 'P', obj_label: 'P', properties: {} }] },
        entities: [
          { eid: 'a', label: 'P', name: 'A', aliases: [], description: null, properties: {} },
          { eid: 'b', label: 'P', name: 'B', aliases: [], description: 'nul \u0000 here', properties: {} },
          { eid: 'c', label: 'P', name: 'C', aliases: ['lone \ud800 half'], description: null, properties: {} },
          { eid: 'd', label: 'P', name: 'D', aliases: [], description: null, properties: { nick: 'fine' } },
        ],
        relations: [{ rid: 'r1', label: 'knows', subj_id: 'a', obj_id: 'd', properties: {} }],
      }),
    },
    entities: 2,
    edges: 1,
    errors: [`graph.json:0: entity "b": the document ${NUL}`, `graph.json:0: entity "c": an alias ${SURROGATE}`],
  },
];

describe('text PostgreSQL cannot store and deep nesting are bad rows in every format', () => {
  let testDb: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    testDb = await openAppDatabase();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-unstorable-'));
  });
  afterAll(async () => {
    await testDb.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function write(c: Case): string[] {
    const folder = fs.mkdtempSync(path.join(dir, `${c.format}-`));
    return Object.entries(c.files).map(([name, text]) => {
      fs.writeFileSync(path.join(folder, name), text);
      return path.join(folder, name);
    });
  }

  for (const c of cases) {
    it(`${c.format}: skipped with file, line and reason under "skip"`, async () => {
      const summary = await importKnowledgeBase(pool(), openSource(c.format, write(c)), { slug: `skip-${c.format}`, format: c.format, files: [], onError: 'skip' });
      expect(summary.errors.map((e) => `${e.file}:${e.line}: ${e.reason}`)).toEqual(c.errors);
      expect({ entities: summary.entities, edges: summary.edges }).toEqual({ entities: c.entities, edges: c.edges });
      const { rows } = await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM entity WHERE kb_id = $1`, [summary.kbId]);
      expect(rows[0]!.n).toBe(c.entities);
    });

    it(`${c.format}: stops at the first under "stop", keeping nothing`, async () => {
      const run = importKnowledgeBase(pool(), openSource(c.format, write(c)), { slug: `stop-${c.format}`, format: c.format, files: [], onError: 'stop' });
      await expect(run).rejects.toSatisfy((e) => e instanceof ImportAborted && e.message === `Import stopped at ${c.errors[0]}`);
      expect(await db().knowledgeBase.findUnique({ where: { slug: `stop-${c.format}` } })).toBeNull();
    });
  }
});
