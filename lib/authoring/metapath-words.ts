import type { Metapath, MetapathStart, MetapathStep } from '../kb/metapath';

/** A relational requirement as people read it: what the answers are, and one sentence per path. */
export interface RequirementWords {
  /** E.g. "Answers: the entities of type brand that every path reaches." */
  summary: string;
  paths: string[];
}

export interface WordOptions {
  /** The seed's entity id: a path starting there reads "the seed". */
  seedId?: number;
  /** An entity's name, when known; unknown ones read "entity <id>". */
  nameOf?: (entityId: number) => string | undefined;
}

const article = (type: string) => (/^[aeiou]/i.test(type) ? `an ${type}` : `a ${type}`);

function startInWords(start: MetapathStart, { seedId, nameOf }: WordOptions): string {
  if ('type' in start) return `any ${start.type}`;
  const name = nameOf?.(start.entity);
  if (start.entity === seedId) return name ? `the seed (${name})` : 'the seed';
  return name ? `“${name}”` : `entity ${start.entity}`;
}

function stepInWords(step: MetapathStep): string {
  return step.direction === 'out'
    ? `follow “${step.relation}” to ${article(step.targetType)}`
    // An incoming edge is walked from its target back to its source.
    : `go back along “${step.relation}” to ${article(step.targetType)}`;
}

/** One metapath as a sentence: "From the seed (X), follow “has_brand” to a brand, then go back along … ." */
export function pathInWords(path: Metapath, options: WordOptions = {}): string {
  const steps = path.steps.map(stepInWords);
  const from = `From ${startInWords(path.start, options)}`;
  return steps.length ? `${from}, ${steps.join(', then ')}.` : `${from}.`;
}

/** The type a path ends at: its last step's target, or its start type when it has no steps. */
function endType(path: Metapath): string | null {
  const last = path.steps[path.steps.length - 1];
  if (last) return last.targetType;
  return 'type' in path.start ? path.start.type : null;
}

/**
 * A requirement as stored with a draft (`{paths: Metapath[]}`, kept as the editor sent it) in words; null
 * when there is none or it does not have that shape.
 */
export function requirementInWords(requirement: unknown, options: WordOptions = {}): RequirementWords | null {
  const paths = readPaths(requirement);
  if (!paths?.length) return null;
  const type = endType(paths[0]!);
  const target = type ? `the entities of type ${type}` : 'the entities';
  const summary = paths.length === 1 ? `Answers: ${target} this path reaches.` : `Answers: ${target} that all ${paths.length} paths reach.`;
  return { summary, paths: paths.map((p) => pathInWords(p, options)) };
}

function readPaths(requirement: unknown): Metapath[] | null {
  if (typeof requirement !== 'object' || requirement === null) return null;
  const { paths } = requirement as { paths?: unknown };
  return Array.isArray(paths) && paths.every(isMetapath) ? paths : null;
}

function isMetapath(value: unknown): value is Metapath {
  if (typeof value !== 'object' || value === null) return false;
  const { start, steps } = value as { start?: unknown; steps?: unknown };
  return isStart(start) && Array.isArray(steps) && steps.every(isStep);
}

function isStart(value: unknown): value is MetapathStart {
  if (typeof value !== 'object' || value === null) return false;
  const start = value as { entity?: unknown; type?: unknown };
  return Number.isInteger(start.entity) || typeof start.type === 'string';
}

function isStep(value: unknown): value is MetapathStep {
  if (typeof value !== 'object' || value === null) return false;
  const step = value as { direction?: unknown; relation?: unknown; targetType?: unknown };
  return (step.direction === 'out' || step.direction === 'in') && typeof step.relation === 'string' && typeof step.targetType === 'string';
}
