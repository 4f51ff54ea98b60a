import { z } from 'zod';
import { apiRoute, idParam, parseWith } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleQuerySet } from '@/lib/queries/access';
import { releaseDownload } from '@/lib/queries/download';
import { getRelease } from '@/lib/queries/releases';
import { QUERY_FORMATS } from '@/lib/queries/types';

const querySchema = z.object({
  formats: z.string().max(200).default(QUERY_FORMATS.join(','))
    .transform((s) => s.split(',').map((f) => f.trim()).filter(Boolean))
    .pipe(z.array(z.enum(QUERY_FORMATS)).min(1)),
});

/** The release as a zip: README.md (the dataset card), queries.jsonl and the chosen formats' folders. */
export const GET = apiRoute<{ slug: string; name: string; number: string }>('kb:browse', async ({ req, user, params }) => {
  const { set } = await visibleQuerySet(user, params.slug, params.name);
  const release = await getRelease(pool(), set.id, idParam(params.number, 'release number'));
  const { formats } = parseWith(querySchema, Object.fromEntries(new URL(req.url).searchParams), 'query');
  return releaseDownload(pool(), release.id, `${set.name}-v${release.number}`, formats, release.card);
});
