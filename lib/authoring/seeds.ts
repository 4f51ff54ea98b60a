import { badRequest } from '../errors';
import { IngestIssue } from '../ingest/source';
import type { Queryable } from '../db/transaction';

/**
 * How a campaign's seed entities are chosen:
 * - random: `count` entities of the given types (all types when none), uniformly, reproducible from `seed`;
 * - stratified: `perType` entities of each given type (all of a type when it has fewer), same seed rule;
 * - list: external ids, one a line, as uploaded (blank lines and `#` comments skipped).
 * Random and stratified leave out entities with fewer than `minDegree` edges (default 1): an isolated
 * entity gives an author nothing to write a relational query from.
 */
export type SeedSampling =
  | { mode: 'random'; count: number; types?: string[]; seed: number; minDegree?: number }
  | { mode: 'stratified'; perType: number; types?: string[]; seed: number; minDegree?: number }
  | { mode: 'list'; text: string; file: string };

export interface SampledSeeds {
  /** Internal entity ids in the order they will be handed out. */
  entityIds: number[];
  /** Lines of a list that name no entity, or one already listed; nothing is sampled when there are any. */
  issues: IngestIssue[];
}

async function typeIds(db: Queryable, kbId: number, types: string[] | undefined): Promise<number[] | null> {
  if (!types?.length) return null;
  const { rows } = await db.query<{ id: number; name: string }>('SELECT id, name FROM node_type WHERE kb_id = $1 AND name = ANY($2::text[])', [kbId, types]);
  const missing = types.filter((t) => !rows.some((r) => r.name === t));
  if (missing.length) throw badRequest(`seeds.types: unknown entity type${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
  return rows.map((r) => r.id);
}

export async function sampleSeeds(db: Queryable, kbId: number, spec: SeedSampling): Promise<SampledSeeds> {
  if (spec.mode === 'list') return seedsFromList(db, kbId, spec.text, spec.file);
  const types = await typeIds(db, kbId, spec.types);
  // md5 of (seed, id) orders the entities pseudo-randomly and the same way for the same seed.
  const order = `md5($2::text || ':' || e.id::text)`;
  const where = `e.kb_id = $1 AND e.degree >= $3 AND ($4::int[] IS NULL OR e.type_id = ANY($4::int[]))`;
  const args = [kbId, String(spec.seed), spec.minDegree ?? 1, types];
  const sql = spec.mode === 'random'
    ? `SELECT e.id FROM entity e WHERE ${where} ORDER BY ${order} LIMIT $5`
    : `SELECT id FROM (SELECT e.id, ${order} AS h, row_number() OVER (PARTITION BY e.type_id ORDER BY ${order}) AS n FROM entity e WHERE ${where}) s
        WHERE n <= $5 ORDER BY h`;
  const { rows } = await db.query<{ id: number }>(sql, [...args, spec.mode === 'random' ? spec.count : spec.perType]);
  return { entityIds: rows.map((r) => r.id), issues: [] };
}

async function seedsFromList(db: Queryable, kbId: number, text: string, file: string): Promise<SampledSeeds> {
  const lines = text.replace(/^\ufeff/, '').split(/\r?\n/).map((raw, i) => ({ id: raw.trim(), line: i + 1 })).filter((l) => l.id && !l.id.startsWith('#'));
  const { rows } = await db.query<{ external_id: string; id: number }>(
    'SELECT external_id, id FROM entity WHERE kb_id = $1 AND external_id = ANY($2::text[])', [kbId, [...new Set(lines.map((l) => l.id))]]);
  const idOf = new Map(rows.map((r) => [r.external_id, r.id]));
  const issues: IngestIssue[] = [];
  const firstLine = new Map<string, number>();
  const entityIds: number[] = [];
  for (const l of lines) {
    const id = idOf.get(l.id);
    const earlier = firstLine.get(l.id);
    if (id === undefined) issues.push(new IngestIssue(file, l.line, `no entity with the id "${l.id}" in this knowledge base`));
    else if (earlier !== undefined) issues.push(new IngestIssue(file, l.line, `"${l.id}" is already listed at line ${earlier}`));
    else {
      firstLine.set(l.id, l.line);
      entityIds.push(id);
    }
  }
  if (!lines.length) issues.push(new IngestIssue(file, 0, 'the list names no entity'));
  return issues.length ? { entityIds: [], issues } : { entityIds, issues };
}
