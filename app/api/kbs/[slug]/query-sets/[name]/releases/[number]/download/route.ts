import { z } from 'zod';
import { apiRoute, idParam, parseWith } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleQuerySet } from '@/lib/queries/access';
import { releaseDownload } from '@/lib/queries/download';
import { getReleaseWithRecord } from '@/lib/queries/releases';
import { RELEASE_FORMATS } from '@/lib/release/formats';

const querySchema = z.object({
  formats: z.string().max(200).default(RELEASE_FORMATS.join(','))
    .transform((s) => s.split(',').map((f) => f.trim()).filter(Boolean))
    .pipe(z.array(z.enum(RELEASE_FORMATS)).min(1)),
});

/**
 * The release as a zip: README.md (the dataset card), queries.jsonl, the chosen formats' folders and, with
 * `hf`, the Hugging Face folder with its Croissant file.
 */
export const GET = apiRoute<{ slug: string; name: string; number: string }>('kb:browse', async ({ req, user, params }) => {
  const { kb, set } = await visibleQuerySet(user, params.slug, params.name);
  const release = await getReleaseWithRecord(pool(), set.id, idParam(params.number, 'release number'));
  const { formats } = parseWith(querySchema, Object.fromEntries(new URL(req.url).searchParams), 'query');
  return releaseDownload(pool(), { set, kb, release, requestUrl: req.url }, `${set.name}-v${release.number}`, formats);
});
