import { z } from 'zod';
import { apiRoute, parseWith } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleQuerySet } from '@/lib/queries/access';
import { downloadResponse } from '@/lib/queries/download';
import { QUERY_FORMATS } from '@/lib/queries/types';

const querySchema = z.object({ format: z.enum(QUERY_FORMATS), for: z.enum(['programs', 'spreadsheet']).default('programs') });

/**
 * The live set in one format: JSONL as one file, STaRK and TREC (several files) as a zip. Streamed. Exact data
 * files by default; `for=spreadsheet` (STaRK only) neutralises query texts a spreadsheet would run as formulas.
 */
export const GET = apiRoute<{ slug: string; name: string }>('kb:browse', async ({ req, user, params }) => {
  const { set } = await visibleQuerySet(user, params.slug, params.name);
  const query = parseWith(querySchema, Object.fromEntries(new URL(req.url).searchParams), 'query');
  return downloadResponse(pool(), { setId: set.id }, query.format, set.name, query.for === 'spreadsheet' ? 'spreadsheet' : 'exact');
});
