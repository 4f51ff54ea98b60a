import type pg from 'pg';

export type Queryable = Pick<pg.Pool, 'query'>;
/** A pool, or anything that hands out connections the way one does. */
export type Database = Pick<pg.Pool, 'query' | 'connect'>;

export type Isolation = 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';

/** Runs `fn` on one connection inside a transaction: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(db: Database, fn: (client: pg.PoolClient) => Promise<T>, isolation: Isolation = 'READ COMMITTED', access: 'READ WRITE' | 'READ ONLY' = 'READ WRITE'): Promise<T> {
  const client = await db.connect();
  try {
    await client.query(`BEGIN ISOLATION LEVEL ${isolation} ${access}`);
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** Records a change in the audit log; call it inside the transaction that makes the change. */
export async function auditSql(db: Queryable, entry: { userId: number | null; action: string; targetType: string; targetId: string | number; kbId?: number; details?: unknown }): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (user_id, action, target_type, target_id, kb_id, details) VALUES ($1, $2, $3, $4, $5, $6)`,
    [entry.userId, entry.action, entry.targetType, String(entry.targetId), entry.kbId ?? null, JSON.stringify(entry.details ?? {})]);
}
