import type { Queryable } from '../db/transaction';
import { getEntity } from '../kb/entity';
import { resolveEntities } from '../queries/edit';
import type { Provenance } from './types';

/** A query's `metadata.synthesis`, when it is one a synthesis job recorded (older or hand-made metadata is not). */
export function provenanceOf(metadata: Record<string, unknown>): Provenance | null {
  const p = metadata.synthesis as Partial<Provenance> | undefined;
  if (!p || typeof p !== 'object' || !p.template || !Array.isArray(p.seeds) || !Array.isArray(p.relationalAnswers)) return null;
  return p as Provenance;
}

/**
 * For showing a provenance: the internal ids and names of every entity it names (to link them) and the document
 * of the answer its properties were read from (to show each quote in place); entities deleted since are unlinked.
 */
export async function provenanceEntities(db: Queryable, kbId: number, p: Provenance): Promise<{
  entities: Record<string, { entityId: number | null; name: string | null }>;
  sourceDocument: Record<string, unknown> | null;
}> {
  const ids = [...new Set([...p.seeds.map((s) => s.id), ...(p.propertySource ? [p.propertySource.id] : []), ...p.relationalAnswers])];
  const resolved = await resolveEntities(db, kbId, ids);
  const entities = Object.fromEntries(resolved.map((e) => [e.id, { entityId: e.entityId, name: e.name }]));
  const sourceId = p.propertySource ? entities[p.propertySource.id]?.entityId : null;
  const sourceDocument = typeof sourceId === 'number' ? (await getEntity(db, kbId, sourceId)).document : null;
  return { entities, sourceDocument };
}
