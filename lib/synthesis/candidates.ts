import crypto from 'node:crypto';
import { badRequest } from '../errors';
import { Params } from '../db/params';
import type { Queryable } from '../db/transaction';
import type { MetapathStep } from '../kb/metapath';
import type { Candidate, SynthesisTemplate, TemplateBranch } from './types';

/**
 * Reproducible candidates. Position p takes template p mod T and that template's k-th anchor, k = p div T,
 * in a pseudo-random order fixed by the seed and the template key (seededOrder):
 * - one path: the anchor is the seed, among the start type's entities with an edge of the first step;
 * - two paths: the anchor is a pivot answer, among the answer type's entities every branch reaches from
 *   some seed; each branch's seed is then found walking back from the pivot, choosing among the neighbours
 *   (that still lead back to a seed) the first in md5(seed:key:branch:id) order, so the answer set holds the
 *   pivot at least.
 * Anchor sets are read once per knowledge-base version and kept in memory (a type's ids), so planning a
 * candidate costs no scan; they are shared by every template and seed that starts the same way.
 */

interface KbNames {
  version: string;
  typeIds: Map<string, number>;
  relationIds: Map<string, number>;
}

async function kbNames(db: Queryable, kbId: number): Promise<KbNames> {
  const { rows } = await db.query<{ version: string; types: Record<string, number> | null; relations: Record<string, number> | null }>(
    `SELECT k.updated_at::text AS version,
            (SELECT json_object_agg(name, id) FROM node_type WHERE kb_id = k.id) AS types,
            (SELECT json_object_agg(name, id) FROM edge_type WHERE kb_id = k.id) AS relations
       FROM knowledge_base k WHERE k.id = $1`, [kbId]);
  const row = rows[0];
  if (!row) throw badRequest(`no knowledge base ${kbId}`);
  return { version: row.version, typeIds: new Map(Object.entries(row.types ?? {})), relationIds: new Map(Object.entries(row.relations ?? {})) };
}

/**
 * A small least-recently-used cache of id lists; keys carry the knowledge base's version. It holds the
 * promises, so callers asking at once share one read; a failed read is forgotten.
 */
const MAX_CACHED = 256;
const cache = new Map<string, Promise<Int32Array>>();

function cached(key: string, load: () => Promise<Int32Array>): Promise<Int32Array> {
  let hit = cache.get(key);
  if (hit) cache.delete(key);
  else {
    const loading = load();
    loading.catch(() => {
      if (cache.get(key) === loading) cache.delete(key);
    });
    hit = loading;
  }
  cache.set(key, hit);
  if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
  return hit;
}

function idOf(map: Map<string, number>, name: string, what: string): number {
  const id = map.get(name);
  if (id === undefined) throw badRequest(`templates: unknown ${what} "${name}"`);
  return id;
}

/** One edge walked from the current entity (`near` column) to the next (`far`), which must be of `typeId`. */
interface Hop {
  relationId: number;
  near: 'source_id' | 'target_id';
  far: 'source_id' | 'target_id';
  typeId: number;
}

/** A step walked as written (forwards) or from its end back to where it came from. */
function hop(names: KbNames, step: MetapathStep, toType: string, backwards: boolean): Hop {
  const alongEdge = (step.direction === 'out') !== backwards;
  return {
    relationId: idOf(names.relationIds, step.relation, 'relation'),
    near: alongEdge ? 'source_id' : 'target_id',
    far: alongEdge ? 'target_id' : 'source_id',
    typeId: idOf(names.typeIds, toType, 'entity type'),
  };
}

/** A branch's steps walked backwards from its answer to its seed. */
function backSteps(names: KbNames, branch: TemplateBranch): Hop[] {
  const types = [branch.startType, ...branch.steps.map((s) => s.targetType)];
  return branch.steps.map((s, i) => hop(names, s, types[i]!, true)).reverse();
}

/**
 * SQL that holds when the entity `from` has a path along `steps`, each entity reached of
 * its step's type; read through the edge's primary key or edge_target_idx and entity (kb_id, type_id, id).
 */
function pathExists(steps: Hop[], from: string, kb: string, p: Params, depth = 0): string {
  const [step, ...rest] = steps;
  if (!step) return 'TRUE';
  const x = `x${depth}`;
  const n = `n${depth}`;
  return `EXISTS (SELECT 1 FROM edge ${x} JOIN entity ${n} ON ${n}.kb_id = ${kb} AND ${n}.type_id = ${p.add(step.typeId)} AND ${n}.id = ${x}.${step.far}
     WHERE ${x}.kb_id = ${kb} AND ${x}.${step.near} = ${from} AND ${x}.type_id = ${p.add(step.relationId)}
       AND ${pathExists(rest, `${n}.id`, kb, p, depth + 1)})`;
}

async function entitiesWhere(db: Queryable, kbId: number, typeId: number, condition: (p: Params, kb: string) => string): Promise<Int32Array> {
  const p = new Params();
  const kb = p.add(kbId);
  const type = p.add(typeId);
  const cond = condition(p, kb);
  const { rows } = await db.query<{ id: number }>(`SELECT e.id FROM entity e WHERE e.kb_id = ${kb} AND e.type_id = ${type} AND ${cond}`, p.values);
  return Int32Array.from(rows.map((r) => r.id));
}

/** Entities of the start type with an edge of the first step leading to its type. */
function firstStepSeeds(db: Queryable, kbId: number, names: KbNames, branch: TemplateBranch): Promise<Int32Array> {
  const first = branch.steps[0]!;
  return cached(`${kbId}@${names.version}|first|${JSON.stringify([branch.startType, first])}`, () =>
    entitiesWhere(db, kbId, idOf(names.typeIds, branch.startType, 'entity type'),
      (p, kb) => pathExists([hop(names, first, first.targetType, false)], 'e.id', kb, p)));
}

/** Entities of the branch's answer type reachable along the whole branch from some entity of its start type. */
function branchEnds(db: Queryable, kbId: number, names: KbNames, branch: TemplateBranch): Promise<Int32Array> {
  const answerType = branch.steps.at(-1)!.targetType;
  return cached(`${kbId}@${names.version}|ends|${JSON.stringify(branch)}`, () =>
    entitiesWhere(db, kbId, idOf(names.typeIds, answerType, 'entity type'), (p, kb) => pathExists(backSteps(names, branch), 'e.id', kb, p)));
}

/** murmur3's finaliser: spreads a 32-bit value so that neighbouring ids land far apart. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Entity ids are PostgreSQL integers: below 2^31. */
const ID_SPAN = 2 ** 31;

/**
 * Ids in a pseudo-random order fixed by `prefix` (seed and template key): md5 of the prefix, then an integer
 * hash per id — 30,000 ids are ordered in about 20 ms, where an md5 each took 150.
 */
function seededOrder(ids: Int32Array, prefix: string): Int32Array {
  const salt = crypto.createHash('md5').update(prefix).digest().readUInt32BE(0);
  // Hash (its top 21 bits) and id packed in one float below 2^53 sort natively, ties by id.
  const packed = Float64Array.from(ids, (id) => (mix(salt ^ mix(id)) >>> 11) * ID_SPAN + id);
  return Int32Array.from(packed.sort(), (v) => v % ID_SPAN);
}

/** A template's anchors (seeds, or pivots for two branches) in the seeded order. */
async function anchors(db: Queryable, kbId: number, names: KbNames, template: SynthesisTemplate, seed: number): Promise<Int32Array> {
  return cached(`${kbId}@${names.version}|order|${seed}|${template.key}`, async () => {
    if (template.branches.length === 1) return seededOrder(await firstStepSeeds(db, kbId, names, template.branches[0]!), `${seed}:${template.key}`);
    const sets = await Promise.all(template.branches.map((b) => branchEnds(db, kbId, names, b)));
    const others = sets.slice(1).map((s) => new Set(s));
    return seededOrder(sets[0]!.filter((id) => others.every((s) => s.has(id))), `${seed}:${template.key}`);
  });
}

/** Walks a branch back from the pivot to a seed, choosing each step's entity by the seeded order. */
async function seedBehind(db: Queryable, kbId: number, names: KbNames, template: SynthesisTemplate, branch: number, pivot: number, seed: number): Promise<number> {
  const steps = backSteps(names, template.branches[branch]!);
  let current = pivot;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    const p = new Params();
    const kb = p.add(kbId);
    const { rows } = await db.query<{ id: number }>(
      `SELECT n.id FROM edge x JOIN entity n ON n.kb_id = ${kb} AND n.type_id = ${p.add(step.typeId)} AND n.id = x.${step.far}
        WHERE x.kb_id = ${kb} AND x.${step.near} = ${p.add(current)} AND x.type_id = ${p.add(step.relationId)}
          AND ${pathExists(steps.slice(i + 1), 'n.id', kb, p)}
        ORDER BY md5(${p.add(`${seed}:${template.key}:${branch}:`)} || n.id::text), n.id LIMIT 1`, p.values);
    // The pivot was chosen among entities with such a path, so a neighbour is always found.
    current = rows[0]!.id;
  }
  return current;
}

async function candidateAt(db: Queryable, kbId: number, names: KbNames, template: SynthesisTemplate, order: Int32Array, k: number, seed: number, position: number): Promise<Candidate | null> {
  if (k >= order.length) return null;
  const anchor = order[k]!;
  if (template.branches.length === 1) return { position, template, seeds: [anchor] };
  const seeds: number[] = [];
  for (let b = 0; b < template.branches.length; b++) seeds.push(await seedBehind(db, kbId, names, template, b, anchor, seed));
  return { position, template, seeds };
}

/**
 * The candidates at positions from..from+count-1. The same (templates, seed, position) always gives the
 * same candidate. A position whose template has run out of anchors is left out, so the list may be shorter;
 * positions go round the templates, so an empty answer for count >= templates.length means all ran out.
 */
export async function planCandidates(db: Queryable, kbId: number, templates: SynthesisTemplate[], seed: number, from: number, count: number): Promise<Candidate[]> {
  if (!templates.length) throw badRequest('templates: give at least one template');
  const names = await kbNames(db, kbId);
  const candidates: Candidate[] = [];
  for (let position = from; position < from + count; position++) {
    const template = templates[position % templates.length]!;
    const order = await anchors(db, kbId, names, template, seed);
    const candidate = await candidateAt(db, kbId, names, template, order, Math.floor(position / templates.length), seed, position);
    if (candidate) candidates.push(candidate);
  }
  return candidates;
}

/** The seeds of a template's first `n` candidates (as planCandidates hands them out), for measuring it. */
export async function sampleTemplateSeeds(db: Queryable, kbId: number, template: SynthesisTemplate, seed: number, n: number): Promise<number[][]> {
  const names = await kbNames(db, kbId);
  const order = await anchors(db, kbId, names, template, seed);
  const seeds: number[][] = [];
  for (let k = 0; k < Math.min(n, order.length); k++) seeds.push((await candidateAt(db, kbId, names, template, order, k, seed, k))!.seeds);
  return seeds;
}
