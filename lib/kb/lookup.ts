import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

/** The few fields a list, a picker or a link needs to show an entity. */
export interface EntitySummary {
  id: number;
  externalId: string;
  name: string;
  type: string;
  degree: number;
}

const INTERNAL_ID = /^#(\d{1,10})$/;
const DIGITS = /^\d{1,10}$/;

/**
 * Every entity a typed key names exactly: `#123` is an internal id only; `123` is the internal id and also
 * the external id "123" (sources such as PrimeKG number their nodes); anything else is an external id.
 * Internal id hits come first. Both reads are primary-key / unique-index probes.
 */
export async function lookupEntities(db: Queryable, kbId: number, key: string): Promise<EntitySummary[]> {
  const trimmed = key.trim();
  if (!trimmed) return [];
  const hashed = INTERNAL_ID.exec(trimmed);
  const internal = hashed ? hashed[1]! : DIGITS.test(trimmed) ? trimmed : null;
  const internalId = internal !== null && Number(internal) <= 2_147_483_647 ? Number(internal) : null;
  const externalId = hashed ? null : trimmed;
  const { rows } = await db.query<EntitySummary & { byId: boolean }>(
    `SELECT e.id, e.external_id AS "externalId", e.name, t.name AS type, e.degree, e.id = $2 AS "byId"
       FROM entity e JOIN node_type t ON t.id = e.type_id
      WHERE e.kb_id = $1 AND (e.id = $2 OR e.external_id = $3)
      ORDER BY "byId" DESC`,
    [kbId, internalId, externalId],
  );
  return rows.map(({ byId: _byId, ...summary }) => summary);
}

/** The entity a key names (see lookupEntities), preferring the internal id; null when none. */
export async function lookupEntity(db: Queryable, kbId: number, key: string): Promise<EntitySummary | null> {
  return (await lookupEntities(db, kbId, key))[0] ?? null;
}
