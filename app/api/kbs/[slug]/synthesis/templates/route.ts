import { apiRoute, parseWith } from '@/lib/http/api';
import { db, pool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { listTemplates, llmStatus, templateListSchema } from '@/lib/synthesis/template-list';

/**
 * The knowledge base's relational templates (1-3 steps, two paths meeting at one type), filtered by seed type,
 * answer type and steps, a page at a time; `measure=1` adds each listed template's answer-set sizes on a seeded
 * sample. With it, whether an LLM is configured and which models it would use.
 */
export const GET = apiRoute<{ slug: string }>('queries:manage', async ({ req, user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const query = parseWith(templateListSchema, Object.fromEntries(new URL(req.url).searchParams), 'query');
  return { llm: llmStatus(), ...(await listTemplates(pool(), kb.id, query)) };
});
