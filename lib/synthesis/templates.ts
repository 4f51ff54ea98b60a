import { badRequest } from '../errors';
import type { Database } from '../db/transaction';
import { evaluateMetapaths, movesFrom, type MetapathSchema, type MetapathStep } from '../kb/metapath';
import { sampleTemplateSeeds } from './candidates';
import { branchKey, readBranch } from './template-key';
import { templateWords } from './template-words';
import type { SynthesisTemplate, TemplateBranch, TemplateSize } from './types';

/** Templates have 1 to 3 steps over all branches, as STaRK's do. */
export const MAX_TEMPLATE_STEPS = 3;

function makeTemplate(branches: TemplateBranch[]): SynthesisTemplate {
  const answerType = branches[0]!.steps.at(-1)!.targetType;
  return {
    key: branches.map(branchKey).join(' & '),
    branches,
    answerType,
    steps: branches.reduce((n, b) => n + b.steps.length, 0),
    words: templateWords(branches, answerType),
  };
}

/**
 * Whether the knowledge base holds the step's edges both ways, judged from the schema: the mirrored triple has
 * as many edges (PrimeKG stores every edge so). A relation within one type cannot be judged so, and counts as
 * one-way.
 */
function mirroredIn(schema: MetapathSchema): (from: string, step: { relation: string; targetType: string }) => boolean {
  const edgeCount = new Map(schema.triples.map((t) => [`${t.sourceType}\0${t.relation}\0${t.targetType}`, t.edgeCount]));
  return (from, step) => from !== step.targetType
    && edgeCount.get(`${from}\0${step.relation}\0${step.targetType}`) === edgeCount.get(`${step.targetType}\0${step.relation}\0${from}`);
}

/**
 * Whether `next` walks straight back along the edge `prev` came by, to the type `prev` left from (the other
 * way, or either way when the edges are mirrored): the reached set is the seed and its siblings, so the seed
 * answers its own query (and the leak check drops it).
 */
function walksBack(mirrored: ReturnType<typeof mirroredIn>, prev: MetapathStep, prevFrom: string, next: MetapathStep): boolean {
  return next.relation === prev.relation && next.targetType === prevFrom && (next.direction !== prev.direction || mirrored(prevFrom, prev));
}

/**
 * Every path of 1 to `maxSteps` steps from each type, without steps that walk straight back. A mirrored
 * relation is walked forwards only: backwards it reaches the same entities and would only double the templates.
 */
function enumeratePaths(schema: MetapathSchema, maxSteps: number): TemplateBranch[] {
  const mirrored = mirroredIn(schema);
  const moves = new Map<string, MetapathStep[]>();
  const movesOf = (type: string) => {
    let m = moves.get(type);
    if (!m) {
      m = movesFrom(schema.triples, type)
        .filter((move) => move.edgeCount > 0 && !(move.direction === 'in' && mirrored(type, move)))
        .map(({ relation, direction, targetType }) => ({ relation, direction, targetType }));
      moves.set(type, m);
    }
    return m;
  };
  const paths: TemplateBranch[] = [];
  const extend = (startType: string, steps: MetapathStep[], types: string[]) => {
    if (steps.length) paths.push({ startType, steps });
    if (steps.length === maxSteps) return;
    for (const step of movesOf(types.at(-1)!)) {
      const prev = steps.at(-1);
      if (prev && walksBack(mirrored, prev, types.at(-2)!, step)) continue;
      extend(startType, [...steps, step], [...types, step.targetType]);
    }
  };
  for (const { name } of schema.types) extend(name, [], [name]);
  return paths;
}

/**
 * The relational templates of a schema: single paths of 1 to `maxSteps` steps, and two paths meeting at one
 * answer type (STaRK's two-branch templates, steps over both at most `maxSteps`; a branch is never paired with
 * itself). Sorted by steps, then key.
 */
export function enumerateTemplates(schema: MetapathSchema, maxSteps = MAX_TEMPLATE_STEPS): SynthesisTemplate[] {
  if (!Number.isInteger(maxSteps) || maxSteps < 1 || maxSteps > MAX_TEMPLATE_STEPS) {
    throw badRequest(`steps: templates have 1 to ${MAX_TEMPLATE_STEPS} steps (got ${maxSteps})`);
  }
  const paths = enumeratePaths(schema, maxSteps);
  const templates = paths.map((p) => makeTemplate([p]));
  const byAnswer = new Map<string, TemplateBranch[]>();
  for (const p of paths) {
    if (p.steps.length >= maxSteps) continue;
    const type = p.steps.at(-1)!.targetType;
    byAnswer.set(type, [...(byAnswer.get(type) ?? []), p]);
  }
  for (const branches of byAnswer.values()) {
    // Shorter branch first, then by key: each pair once, in one order.
    const sorted = branches.map((b) => ({ b, key: branchKey(b) }))
      .sort((x, y) => x.b.steps.length - y.b.steps.length || (x.key < y.key ? -1 : 1));
    for (let i = 0; i < sorted.length; i++) {
      for (let j = i + 1; j < sorted.length; j++) {
        if (sorted[i]!.b.steps.length + sorted[j]!.b.steps.length <= maxSteps) templates.push(makeTemplate([sorted[i]!.b, sorted[j]!.b]));
      }
    }
  }
  return templates.sort((a, b) => a.steps - b.steps || a.branches.length - b.branches.length || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Why a branch written in a key is not a path of this schema, or its parsed form. */
function parseBranch(schema: MetapathSchema, text: string): TemplateBranch | string {
  const read = readBranch(text);
  if (typeof read === 'string') return read;
  const types = new Set(schema.types.map((t) => t.name));
  const relations = new Set(schema.relations);
  const problems: string[] = [];
  if (!types.has(read.startType)) problems.push(`unknown entity type "${read.startType}"`);
  let from = read.startType;
  for (const step of read.steps) {
    if (!relations.has(step.relation)) problems.push(`unknown relation "${step.relation}"`);
    if (!types.has(step.targetType)) problems.push(`unknown entity type "${step.targetType}"`);
    else if (types.has(from) && relations.has(step.relation)) {
      const [source, target] = step.direction === 'out' ? [from, step.targetType] : [step.targetType, from];
      if (!schema.triples.some((t) => t.sourceType === source && t.relation === step.relation && t.targetType === target && t.edgeCount > 0)) {
        problems.push(`no "${step.relation}" edges lead from ${source} to ${target}`);
      }
    }
    from = step.targetType;
  }
  return problems.length ? [...new Set(problems)].join(', ') : read;
}

function parseTemplate(schema: MetapathSchema, key: string): SynthesisTemplate | string {
  const parsed = key.split(' & ').map((b) => parseBranch(schema, b));
  const problems = parsed.filter((p): p is string => typeof p === 'string');
  if (problems.length) return problems.join('; ');
  const branches = parsed as TemplateBranch[];
  if (branches.length > 2) return 'a template has one or two paths';
  const steps = branches.reduce((n, b) => n + b.steps.length, 0);
  if (steps > MAX_TEMPLATE_STEPS) return `a template has at most ${MAX_TEMPLATE_STEPS} steps over all its paths (this has ${steps})`;
  const ends = new Set(branches.map((b) => b.steps.at(-1)!.targetType));
  if (ends.size > 1) return `its paths end at different types (${[...ends].join(', ')}); they must meet at one`;
  return makeTemplate(branches);
}

/**
 * The templates named by `keys`, in that order. A key is read as a path of the schema, so templates the
 * enumeration leaves out (straight walks back) may still be named. Throws 400 naming every key that is not a
 * template of this knowledge base and why (unknown type, unknown relation, no such edges).
 */
export function templatesByKey(schema: MetapathSchema, keys: string[]): SynthesisTemplate[] {
  const found: SynthesisTemplate[] = [];
  const problems: string[] = [];
  for (const key of keys) {
    const t = parseTemplate(schema, key);
    if (typeof t === 'string') problems.push(`"${key}": ${t}`);
    else found.push(t);
  }
  if (problems.length) throw badRequest(`templates: unknown template${problems.length > 1 ? 's' : ''}: ${problems.join('; ')}`);
  return found;
}

function median(values: number[]): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Answer-set sizes per template on the first `sample` seeds the planner would hand out with `seed` (see
 * candidates.ts), each computed exactly by the metapath engine.
 */
export async function measureTemplates(db: Database, kbId: number, templates: SynthesisTemplate[], opts: { sample: number; seed: number }): Promise<TemplateSize[]> {
  const sizes: TemplateSize[] = [];
  for (const template of templates) {
    const seedSets = await sampleTemplateSeeds(db, kbId, template, opts.seed, opts.sample);
    const totals: number[] = [];
    for (const seeds of seedSets) {
      const paths = template.branches.map((b, i) => ({ start: { entity: seeds[i]! }, steps: b.steps }));
      totals.push((await evaluateMetapaths(db, kbId, paths, { limit: 0, offset: 0 })).total);
    }
    sizes.push({
      key: template.key,
      sampled: totals.length,
      nonEmpty: totals.filter((n) => n > 0).length,
      mean: totals.length ? totals.reduce((a, b) => a + b, 0) / totals.length : 0,
      median: median(totals),
      max: totals.length ? Math.max(...totals) : 0,
    });
  }
  return sizes;
}

// Sizes measured per knowledge-base version, sample, seed and template: a second request for the same templates
// (the list measured again, a preview then its job) need not evaluate them again.
const sizeCache = new Map<string, TemplateSize>();
const MAX_CACHED_SIZES = 20_000;

/** `measureTemplates`, remembering sizes until the knowledge base changes. */
export async function measureTemplatesCached(db: Database, kbId: number, templates: SynthesisTemplate[], opts: { sample: number; seed: number }): Promise<TemplateSize[]> {
  const { rows } = await db.query<{ version: string }>('SELECT updated_at::text AS version FROM knowledge_base WHERE id = $1', [kbId]);
  const keyOf = (t: SynthesisTemplate) => `${kbId}@${rows[0]?.version}|${opts.seed}|${opts.sample}|${t.key}`;
  const missing = templates.filter((t) => !sizeCache.has(keyOf(t)));
  const measured = await measureTemplates(db, kbId, missing, opts);
  if (sizeCache.size + measured.length > MAX_CACHED_SIZES) sizeCache.clear();
  missing.forEach((t, i) => sizeCache.set(keyOf(t), measured[i]!));
  return templates.map((t) => sizeCache.get(keyOf(t))!);
}
