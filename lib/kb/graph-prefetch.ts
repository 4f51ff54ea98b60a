import { dehydrate, QueryClient, type DehydratedState } from '@tanstack/react-query';
import type { Queryable } from '../db/transaction';
import type { z } from 'zod';
import type { graphPageSchema } from './explorer-params';
import { MAX_ELEMENTS, neighbourhood } from './neighbourhood';

/**
 * The graph page's first view, read on the server and handed to the client's query cache, so the page arrives
 * with its data instead of asking for it once its script has run (a round trip after hydration, and a render
 * of the empty canvas first). The key is the one components/graph-explorer.tsx reads for the whole view
 * (`graph-view`: the view with its expansions, none here). Only that one: the per-request entry (`graph`) would
 * send the same 500 elements twice, and is fetched again only if the view is expanded. Views with expansions or
 * a saved view to open are left to the client. Null when there is nothing to prefetch.
 */
/** The graph page's address, as checked by checkGraphPage (lib/kb/explorer-pages). */
export type GraphPageAddress = z.output<typeof graphPageSchema>;

export async function prefetchGraphView(db: Queryable, kbId: number, kbSlug: string, address: GraphPageAddress): Promise<DehydratedState | null> {
  const { entity, hops, rel, dir, expand, view: saved } = address;
  if (entity === undefined || expand.length > 0 || saved !== undefined) return null;
  const view = await neighbourhood(db, kbId, { entityId: entity, hops, relations: rel, direction: dir, budget: MAX_ELEMENTS });
  const client = new QueryClient();
  client.setQueryData(['graph-view', kbSlug, entity, hops, rel, dir, expand], { view, skipped: [] });
  return dehydrate(client);
}
