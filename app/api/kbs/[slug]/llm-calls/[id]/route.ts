import { apiRoute, idParam } from '@/lib/http/api';
import { db, pool } from '@/lib/db/client';
import { notFound } from '@/lib/errors';
import { getVisibleKb } from '@/lib/kb/access';
import { getLlmCall } from '@/lib/llm/calls';

/** One stored LLM call of the knowledge base: its messages, response, outcome, attempts, tokens and latency. */
export const GET = apiRoute<{ slug: string; id: string }>('queries:manage', async ({ user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const id = idParam(params.id, 'call id');
  const call = await getLlmCall(pool(), id);
  // A call made for another knowledge base is not this one's to show.
  if (!call || call.kbId !== kb.id) throw notFound(`No LLM call ${id} in this knowledge base`);
  return call;
});
