import type { PGlite } from '@electric-sql/pglite';

/**
 * Keeps each connection's extended-query batch together on the embedded database.
 *
 * pglite-socket serves many connections from PGlite's single session and queues their protocol messages
 * one by one; it only keeps a connection's messages together inside an explicit transaction. A
 * parameterised query is several messages (Parse, Bind, Describe, Execute) ended by Sync, and the unnamed
 * statement and portal they build are session state: another connection's messages in between replace or
 * drop them, and a query gets another one's answer, or none. The queue asks `isInTransaction()` to decide
 * whether to wait for the connection it served last, so this wrapper also answers true while a batch is
 * open, i.e. from any message of an extended query until its Sync.
 */
export function holdExtendedQueryBatches(db: PGlite): PGlite {
  let batchOpen = false;
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'isInTransaction') return () => batchOpen || target.isInTransaction();
      if (prop === 'execProtocolRawStream') {
        return (message: Uint8Array, options: Parameters<PGlite['execProtocolRawStream']>[1]) => {
          batchOpen = opensOrContinuesBatch(message[0], batchOpen);
          return target.execProtocolRawStream(message, options);
        };
      }
      if (prop === 'exec') {
        // The queue's clean-up for a connection that left mid-transaction (or mid-batch) runs ROLLBACK.
        return (query: string, options?: Parameters<PGlite['exec']>[1]) => {
          batchOpen = false;
          return target.exec(query, options);
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

// Frontend message types (first byte) of the extended query protocol, and the ones that end a batch.
const EXTENDED = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((c) => c.charCodeAt(0)));
const SYNC = 'S'.charCodeAt(0);

function opensOrContinuesBatch(type: number | undefined, open: boolean): boolean {
  if (type === SYNC) return false;
  if (type !== undefined && EXTENDED.has(type)) return true;
  // Simple queries, startup and termination neither open nor end a batch.
  return open;
}
