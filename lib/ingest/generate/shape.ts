import { degreeSummary, type EdgePassResult, type GraphPlan } from './graph';

export const DEFAULT_SEED = 1;

/** What a shape's generator is given: exact sizes, the seed, where to write and whom to tell. */
export interface ShapeRun {
  entities: number;
  edges: number;
  seed: number;
  outDir: string;
  files: { entities: string; edges: string };
  progress: (written: { entities: number; edges: number }) => void;
  /** Queries to write in the STaRK format (0: none). */
  queries: number;
}

/** What a shape's generator reports back (the caller adds files, bytes and time). */
export interface ShapeOutput {
  entityTypes: Record<string, number>;
  relations: Record<string, number>;
  maxDegree: number;
  hubs: number;
  fallbackDraws: number;
  /** Approximate number of words in all names and documents. */
  tokens: number;
  edges: number;
  queries?: { csv: string; splits: string; count: number };
}

export function shapeSummary(plan: GraphPlan, pass: EdgePassResult, tokens: number): ShapeOutput {
  const entityTypes: Record<string, number> = {};
  for (const t of plan.types) if (t.count > 0) entityTypes[t.name] = t.count;
  const relations: Record<string, number> = {};
  plan.relations.forEach((r, i) => {
    relations[r.name] = pass.relationEdges[i]!;
  });
  return { entityTypes, relations, ...degreeSummary(pass.degree), fallbackDraws: pass.fallbackDraws, tokens, edges: pass.written };
}
