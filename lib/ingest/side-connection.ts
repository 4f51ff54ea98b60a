import type pg from 'pg';
import type { Queryable } from './partitions';

/** Work running on a connection of its own; `cancel` stops it and waits until it has stopped. */
export interface SideTask<T> {
  result: Promise<T>;
  cancel(): Promise<void>;
}

/**
 * Runs `work` on a second connection beside the import's own: PostgreSQL runs each connection on its own
 * core, so an index build there overlaps the statements on the first. A cancel refuses the work's next
 * statement and cancels the running one on the server, so a failed import can drop its tables at once
 * instead of waiting behind an index build.
 */
export async function onSideConnection<T>(pool: pg.Pool, work: (db: Queryable) => Promise<T>): Promise<SideTask<T>> {
  const client = await pool.connect();
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  let cancelled = false;
  const db: Queryable = {
    query: ((...args: Parameters<pg.ClientBase['query']>) =>
      cancelled ? Promise.reject(new Error('cancelled')) : (client.query as (...a: unknown[]) => unknown)(...args)) as pg.ClientBase['query'],
  };
  const result = work(db).then(
    (value) => { client.release(); return value; },
    // A failed or cancelled connection may hold session settings or an open transaction: it is closed, not pooled.
    (err: unknown) => { client.release(true); throw err; },
  );
  result.catch(() => undefined);
  return {
    result,
    async cancel() {
      cancelled = true;
      await pool.query('SELECT pg_cancel_backend($1)', [rows[0]!.pid]).catch(() => undefined);
      await result.catch(() => undefined);
    },
  };
}
