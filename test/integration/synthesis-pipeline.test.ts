import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors';
import { LlmClient } from '../../lib/llm/client';
import { promptMarker } from '../../lib/llm/prompts';
import type { ChatMessage } from '../../lib/llm/types';
import { metapathSchema, type MetapathSchema } from '../../lib/kb/metapath';
import { planCandidates } from '../../lib/synthesis/candidates';
import { synthesizeItem, type ItemOptions } from '../../lib/synthesis/synthesize-item';
import { enumerateTemplates, measureTemplates, templatesByKey } from '../../lib/synthesis/templates';
import type { Candidate, ItemOutcome, SynthesisTemplate, TemplateBranch } from '../../lib/synthesis/types';
import { openAppDatabase, pool } from '../support/app-database';
import { startFakeChatServer, type FakeChatServer, type FakeReply } from '../support/fake-chat-server';
import { IBD_DIR, ibdIds, importIbd, readIbdEdges } from '../support/primekg-ibd';
import type { TestDatabase } from '../support/test-database';

let testDb: TestDatabase;
let kbId: number;
let schema: MetapathSchema;
let externalOf: Map<number, string>;

beforeAll(async () => {
  testDb = await openAppDatabase();
  kbId = await importIbd(pool());
  schema = await metapathSchema(pool(), kbId);
  ({ externalOf } = await ibdIds(pool(), kbId));
});

afterAll(async () => {
  await testDb.drop();
});

// The fixture read directly from its files, without the importer.
const edges = readIbdEdges();
interface Node { name: string; type: string; attr: string; nodeId: string }
const nodes = new Map<string, Node>(fs.readFileSync(path.join(IBD_DIR, 'nodes.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => {
  const n = JSON.parse(line) as { node_index: number; node_name: string; node_type: string; node_attr: string; node_id: string };
  return [String(n.node_index), { name: n.node_name, type: n.node_type, attr: n.node_attr, nodeId: n.node_id }];
}));

/** A branch walked over the edge list from one seed: the external ids it ends at. */
function walk(seed: string, branch: TemplateBranch): Set<string> {
  let current = new Set([seed]);
  for (const step of branch.steps) {
    const next = new Set<string>();
    for (const e of edges) {
      if (e.relation !== step.relation) continue;
      const [near, far, farType] = step.direction === 'out' ? [e.source, e.target, e.targetType] : [e.target, e.source, e.sourceType];
      if (current.has(near) && farType === step.targetType) next.add(far);
    }
    current = next;
  }
  return current;
}

function relationalAnswers(template: SynthesisTemplate, seeds: string[]): Set<string> {
  const sets = template.branches.map((b, i) => walk(seeds[i]!, b));
  return new Set([...sets[0]!].filter((id) => sets.every((s) => s.has(id))));
}

// Lucene's English stop words, as the property words are compared without them.
const STOP = new Set('a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(' '));
const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
/** Every word the entity's document holds: its name and its fields' values (the importer keeps node_attr and node_id). */
const documentWords = (id: string) => {
  const n = nodes.get(id)!;
  return new Set(words(`${n.name} ${n.attr} ${n.nodeId}`));
};
const supports = (id: string, property: string) => {
  const doc = documentWords(id);
  return words(property).filter((w) => !STOP.has(w)).every((w) => doc.has(w));
};

const DETERMINISTIC: ItemOptions = { llm: null, jobId: 1, minAnswers: 1, maxAnswers: 20, maxCandidates: 200, propertyCount: 2, agreement: 'all' };
const seedExternals = (c: Candidate) => c.seeds.map((id) => externalOf.get(id)!);

describe('templates', () => {
  it('enumerates one- and two-path templates of this schema with readable keys and words', () => {
    const templates = enumerateTemplates(schema);
    const keys = templates.map((t) => t.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toContain('disease -[associated with]-> gene/protein');
    expect(keys).toContain('disease -[associated with]-> gene/protein -[target]-> drug');
    // Two paths meeting at a gene.
    expect(keys).toContain('disease -[associated with]-> gene/protein & drug -[target]-> gene/protein');
    // A step straight back along the relation it came by is left out.
    expect(keys).not.toContain('disease -[associated with]-> gene/protein -[associated with]-> disease');
    const one = templates.find((t) => t.key === 'disease -[associated with]-> gene/protein -[target]-> drug')!;
    expect(one.words).toBe('a drug that targets a gene/protein associated with {seed 1}');
    expect(one.steps).toBe(2);
    expect(templates.every((t) => t.steps >= 1 && t.steps <= 3)).toBe(true);
  });

  it('reads templates back from their keys and answers 400 naming unknown ones, types and relations', () => {
    const [t] = templatesByKey(schema, ['drug -[target]-> gene/protein']);
    expect(t!.answerType).toBe('gene/protein');
    const err = (() => {
      try {
        templatesByKey(schema, ['drug -[target]-> gene/protein', 'virus -[infects]-> gene/protein', 'drug -[target]-> pathway', 'nonsense']);
      } catch (e) {
        return e;
      }
    })() as AppError;
    expect(err).toBeInstanceOf(AppError);
    expect(err.status).toBe(400);
    expect(err.message).toContain('unknown entity type "virus"');
    expect(err.message).toContain('unknown relation "infects"');
    expect(err.message).toContain('no "target" edges lead from drug to pathway');
    expect(err.message).toContain('"nonsense"');
    expect(err.message).not.toContain('"drug -[target]-> gene/protein"');
  });

  it('measures answer-set sizes exactly on the seeds the planner hands out', async () => {
    const templates = templatesByKey(schema, ['disease -[associated with]-> gene/protein', 'pathway -[interacts with]-> gene/protein & drug -[target]-> gene/protein']);
    const sizes = await measureTemplates(pool(), kbId, templates, { sample: 5, seed: 3 });
    const candidates = await planCandidates(pool(), kbId, templates, 3, 0, 10);
    for (const [i, size] of sizes.entries()) {
      const expected = candidates.filter((c) => c.template.key === templates[i]!.key).map((c) => relationalAnswers(c.template, seedExternals(c)).size);
      expect(size.key).toBe(templates[i]!.key);
      expect(size.sampled).toBe(expected.length);
      expect(size.max).toBe(Math.max(...expected));
      expect(size.mean).toBeCloseTo(expected.reduce((a, b) => a + b, 0) / expected.length);
      expect(size.nonEmpty).toBe(expected.filter((n) => n > 0).length);
    }
    // Two paths: the seeds are chosen around a pivot both reach, so no set is empty.
    expect(sizes[1]!.nonEmpty).toBe(sizes[1]!.sampled);
  });
});

describe('the deterministic pipeline on the IBD fixture', () => {
  let templates: SynthesisTemplate[];
  let candidates: Candidate[];
  let outcomes: ItemOutcome[];

  beforeAll(async () => {
    templates = enumerateTemplates(schema);
    candidates = await planCandidates(pool(), kbId, templates, 11, 0, 2 * templates.length);
    outcomes = [];
    for (const c of candidates) outcomes.push(await synthesizeItem(pool(), kbId, c, DETERMINISTIC));
  }, 600_000);

  it('plans candidates whose seeds are of the start type and have an edge of the first step', () => {
    expect(candidates.length).toBeGreaterThan(templates.length);
    for (const c of candidates) {
      expect(c.template).toBe(templates[c.position % templates.length]);
      c.template.branches.forEach((b, i) => {
        const seed = seedExternals(c)[i]!;
        expect(nodes.get(seed)!.type).toBe(b.startType);
        expect(walk(seed, { startType: b.startType, steps: [b.steps[0]!] }).size).toBeGreaterThan(0);
      });
      if (c.template.branches.length === 2) expect(relationalAnswers(c.template, seedExternals(c)).size).toBeGreaterThan(0);
    }
  });

  it('keeps exactly the relational answers whose documents hold every property, checked against the files', () => {
    const kept = outcomes.filter((o) => o.status === 'kept');
    expect(kept.length).toBeGreaterThanOrEqual(20);
    // The extractor prefers properties other answers share: many kept sets hold more than their source.
    expect(kept.filter((o) => o.status === 'kept' && o.answerIds.length > 1).length).toBeGreaterThanOrEqual(20);
    for (const [i, o] of outcomes.entries()) {
      const c = candidates[i]!;
      const relational = relationalAnswers(c.template, seedExternals(c));
      if (o.status !== 'kept') {
        if (o.stage === 'relational') expect(relational.size === 0 || relational.size > DETERMINISTIC.maxCandidates).toBe(true);
        else expect(new Set(o.provenance.relationalAnswers)).toEqual(relational);
        continue;
      }
      const p = o.provenance;
      expect(new Set(p.relationalAnswers)).toEqual(relational);
      expect(o.seedIds).toEqual(seedExternals(c));
      expect(p.properties.length).toBeGreaterThan(0);
      for (const prop of p.properties) {
        // Each property is the text at its offsets in the source's description.
        expect(prop.field).toBe('description');
        expect(nodes.get(p.propertySource!.id)!.attr.slice(prop.start!, prop.end!)).toBe(prop.text);
        expect(prop.source).toBe('extractor');
      }
      const expectedKept = [...relational].filter((id) => p.properties.every((prop) => supports(id, prop.text)));
      expect(new Set(o.answerIds)).toEqual(new Set(expectedKept));
      expect(o.answerIds).toContain(p.propertySource!.id);
      expect(new Set(p.removed.map((r) => r.id))).toEqual(new Set([...relational].filter((id) => !expectedKept.includes(id))));
      expect(p.votes).toHaveLength(relational.size);
      expect(p.methods).toEqual({ properties: 'extractor', compose: 'realiser', filter: ['term-evidence'] });
      // The query names its seeds and none of the relational answers.
      for (const s of p.seeds) expect(o.text).toContain(s.name);
      const queryWords = ` ${words(o.text).join(' ')} `;
      for (const id of relational) expect(queryWords).not.toContain(` ${words(nodes.get(id)!.name).join(' ')} `);
      expect(o.answerIds.length).toBeLessThanOrEqual(DETERMINISTIC.maxAnswers);
    }
  });

  it('is reproducible: the same seed gives the same candidates and outcomes, another seed others', async () => {
    const again = await planCandidates(pool(), kbId, templates, 11, 5, 40);
    const same = candidates.filter((c) => c.position >= 5 && c.position < 45);
    expect(again.map((c) => [c.position, c.template.key, c.seeds])).toEqual(same.map((c) => [c.position, c.template.key, c.seeds]));
    for (const c of again.slice(0, 10)) expect(await synthesizeItem(pool(), kbId, c, DETERMINISTIC)).toEqual(outcomes[candidates.indexOf(same.find((s) => s.position === c.position)!)]);
    const other = await planCandidates(pool(), kbId, templates, 12, 0, 40);
    expect(other.map((c) => c.seeds)).not.toEqual(candidates.filter((c) => c.position < 40).map((c) => c.seeds));
  });
});

describe('the LLM path against a local chat-completions server', () => {
  let server: FakeChatServer;
  /** What the fake answers to each prompt; tests replace parts of it. */
  let compose: () => FakeReply;
  let filter: (model: string, name: string) => FakeReply;
  let candidate: Candidate;
  let relational: Set<string>;

  const promptOf = (messages: ChatMessage[]) => ['synthesis.properties', 'synthesis.compose', 'synthesis.filter']
    .find((id) => messages[0]!.content.includes(promptMarker(id as 'synthesis.filter', 1)));
  /** The document between the prompt's <<< >>> markers. */
  const documentIn = (messages: ChatMessage[]) => /<<<\n([\s\S]*)\n>>>/.exec(messages[1]!.content)![1]!;
  const evenName = (name: string) => name.length % 2 === 0;

  beforeAll(async () => {
    server = await startFakeChatServer(({ model, messages }) => {
      const prompt = promptOf(messages);
      if (prompt === 'synthesis.properties') {
        // A quote copied from the description, and one the document does not hold.
        const description = /- description: (.*)/.exec(documentIn(messages))![1]!;
        const quote = description.split(' ').slice(6, 11).join(' ');
        return { content: JSON.stringify({ properties: [{ property: 'a property read in the text', quote }, { property: 'an invented one', quote: 'words found nowhere' }] }) };
      }
      if (prompt === 'synthesis.compose') return compose();
      const name = /Candidate \([^)]*\): (.*)/.exec(messages[1]!.content)![1]!;
      return filter(model, name);
    });
    // A one-path template with a few answers, its first candidate.
    const [template] = templatesByKey(schema, ['drug -[target]-> gene/protein']);
    const planned = await planCandidates(pool(), kbId, [template!], 5, 0, 40);
    // Some answers with even-length names and some without, so the judges disagree on the set.
    candidate = planned.find((c) => {
      const names = [...relationalAnswers(c.template, seedExternals(c))].map((id) => nodes.get(id)!.name);
      return names.length >= 3 && names.some(evenName) && !names.every(evenName);
    })!;
    relational = relationalAnswers(candidate.template, seedExternals(candidate));
  });

  afterAll(async () => {
    await server.close();
  });

  beforeEach(() => {
    compose = () => ({ content: '{"query": "Which protein that this drug targets has the property read in the text?"}' });
    // Three judges: one keeps all, one those with an even-length name, one none.
    filter = (model, name) => ({ content: JSON.stringify({ satisfies: model === 'judge-all' || (model === 'judge-even' && evenName(name)), reason: `${model} on ${name}` }) });
  });

  const endpoint = (model: string) => ({ baseUrl: server.baseUrl, model });
  const llmOptions = (agreement: 'all' | 'majority'): ItemOptions => ({
    ...DETERMINISTIC, jobId: null, agreement, minAnswers: 1, maxAnswers: 50,
    llm: {
      client: new LlmClient(pool(), { concurrency: 4, timeoutMs: 5_000, maxRetries: 0 }),
      properties: endpoint('writer'), compose: endpoint('writer'),
      filters: [endpoint('judge-all'), endpoint('judge-even'), endpoint('judge-none')],
    },
  });
  const storedCalls = async (ids: number[]) => (await pool().query<{ id: number; purpose: string; status: string; model: string; prompt_id: string }>(
    'SELECT id, purpose, status, model, prompt_id FROM llm_call WHERE id = ANY($1::int[]) ORDER BY id', [ids])).rows;

  it('keeps the candidates most judges keep, with every vote, call and prompt recorded', async () => {
    const o = await synthesizeItem(pool(), kbId, candidate, llmOptions('majority'));
    expect(o.status).toBe('kept');
    if (o.status !== 'kept') return;
    const expected = [...relational].filter((id) => evenName(nodes.get(id)!.name));
    expect(new Set(o.answerIds)).toEqual(new Set(expected));
    expect(o.text).toBe('Which protein that this drug targets has the property read in the text?');
    const p = o.provenance;
    expect(new Set(p.relationalAnswers)).toEqual(relational);
    expect(p.methods).toEqual({ properties: 'writer', compose: 'writer', filter: ['judge-all', 'judge-even', 'judge-none'] });
    expect(p.prompts).toEqual([{ id: 'synthesis.properties', version: 1 }, { id: 'synthesis.compose', version: 1 }, { id: 'synthesis.filter', version: 1 }]);
    // The quote is placed in the source's description; the invented one nowhere.
    const [found, invented] = p.properties;
    expect(found!.source).toBe('llm');
    expect(found!.field).toBe('description');
    expect(nodes.get(p.propertySource!.id)!.attr.slice(found!.start!, found!.end!)).toBe(nodes.get(p.propertySource!.id)!.attr.split(' ').slice(6, 11).join(' '));
    expect(invented).toEqual({ text: 'an invented one', field: null, start: null, end: null, source: 'llm' });
    expect(p.votes).toHaveLength(3 * relational.size);
    for (const v of p.votes) expect(v.reason).toBe(`${v.judge} on ${nodes.get(v.entity)!.name}`);
    expect(p.removed.map((r) => r.id).sort()).toEqual([...relational].filter((id) => !expected.includes(id)).sort());
    const calls = await storedCalls(p.llmCallIds);
    expect(calls).toHaveLength(2 + 3 * relational.size);
    expect(calls.every((c) => c.status === 'ok')).toBe(true);
    expect(new Set(p.votes.map((v) => v.callId))).toEqual(new Set(calls.filter((c) => c.purpose === 'filter').map((c) => c.id)));
  });

  it('drops the query when agreement must be unanimous and one judge keeps nothing', async () => {
    const o = await synthesizeItem(pool(), kbId, candidate, llmOptions('all'));
    expect(o).toMatchObject({ status: 'dropped', stage: 'filter', reason: 'no candidate passed the filter' });
    expect(o.provenance.kept).toEqual([]);
  });

  it('records a malformed answer as a failed item at its stage, never throwing', async () => {
    compose = () => ({ content: 'Sure! Here is a query: what drug targets this?' });
    const o = await synthesizeItem(pool(), kbId, candidate, llmOptions('majority'));
    expect(o).toMatchObject({ status: 'failed', stage: 'compose' });
    if (o.status === 'kept') return;
    expect(o.reason).toMatch(/malformed/);
    const calls = await storedCalls(o.provenance.llmCallIds!);
    expect(calls.map((c) => [c.prompt_id, c.status])).toEqual([['synthesis.properties', 'ok'], ['synthesis.compose', 'malformed']]);
  });

  it('fails the item when a filter call fails, keeping the votes that came back', async () => {
    const victim = [...relational][0]!;
    filter = (model, name) => (model === 'judge-even' && name === nodes.get(victim)!.name
      ? { status: 400, body: '{"error":{"message":"bad request"}}' }
      : { content: JSON.stringify({ satisfies: true, reason: 'fine' }) });
    const o = await synthesizeItem(pool(), kbId, candidate, llmOptions('majority'));
    expect(o).toMatchObject({ status: 'failed', stage: 'filter' });
    if (o.status === 'kept') return;
    expect(o.reason).toContain(`1 of ${3 * relational.size} filter calls failed`);
    expect(o.reason).toContain(`judge-even on ${victim}`);
    expect(o.provenance.votes).toHaveLength(3 * relational.size - 1);
    const calls = await storedCalls(o.provenance.llmCallIds!);
    expect(calls.filter((c) => c.status === 'http')).toHaveLength(1);
    expect(calls).toHaveLength(2 + 3 * relational.size);
  });
});
