import { z } from 'zod';
import { apiRoute, json, KIB, readJson } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleQuerySet } from '@/lib/queries/access';
import { createRelease, listReleases } from '@/lib/queries/releases';

type Params = { slug: string; name: string };

export const GET = apiRoute<Params>('kb:browse', async ({ user, params }) => {
  const { set } = await visibleQuerySet(user, params.slug, params.name);
  return { items: await listReleases(pool(), set.id) };
});

const releaseSchema = z.object({
  name: z.string().trim().min(1, 'give the release a name').max(200),
  notes: z.string().max(20_000).optional(),
  /** The queries' language as an ISO 639 code (the Hugging Face card's `language`, Croissant's `inLanguage`). */
  language: z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, 'an ISO 639 language code, such as en or de').optional(),
}).strict();

/** Freezes the set as its next numbered release (immutable, hashed, with a dataset card). */
export const POST = apiRoute<Params>('queries:manage', async ({ req, user, params }) => {
  const { kb, set } = await visibleQuerySet(user, params.slug, params.name);
  const body = await readJson(req, releaseSchema);
  return json(await createRelease(pool(), set, kb, { ...body, userId: user.id, requestUrl: req.url }), 201);
}, { bodyLimit: 256 * KIB }); // release notes of up to 20,000 characters
