import { z } from 'zod';
import { apiRoute, json, parseWith, readText } from '@/lib/http/api';
import { badRequest } from '@/lib/errors';
import { pool } from '@/lib/db/client';
import { visibleQuerySet } from '@/lib/queries/access';
import { idTextSchema } from '@/lib/input';
import { RUN_FORMATS } from '@/lib/queries/run-files';
import { evaluateRunFile, getRun, listRuns, runTarget } from '@/lib/queries/runs';

type Params = { slug: string; name: string };

export const GET = apiRoute<Params>('kb:browse', async ({ user, params }) => {
  const { set } = await visibleQuerySet(user, params.slug, params.name);
  return { items: await listRuns(pool(), set.id) };
});

const MAX_RUN_BYTES = 200 * 1024 * 1024;
const querySchema = z.object({
  file: z.string().trim().min(1, 'give the file name').max(255),
  name: z.string().trim().max(200).optional(),
  format: z.enum(RUN_FORMATS).optional(),
  release: idTextSchema.optional(),
});

/**
 * Scores a run file sent as the request body (`?file=<name>[&format=trec|csv|jsonl][&release=N]`).
 * Any signed-in user who sees the knowledge base may evaluate: researchers score their systems here.
 */
export const POST = apiRoute<Params>('kb:browse', async ({ req, user, params }) => {
  const { set } = await visibleQuerySet(user, params.slug, params.name);
  const opts = parseWith(querySchema, Object.fromEntries(new URL(req.url).searchParams), 'query');
  const text = await readText(req);
  if (!text.trim()) throw badRequest(`${opts.file} is empty`);
  const id = await evaluateRunFile(pool(), await runTarget(pool(), set, opts.release), { name: opts.name ?? '', fileName: opts.file, text, format: opts.format, userId: user.id });
  return json(await getRun(pool(), set.id, id), 201);
}, { bodyLimit: MAX_RUN_BYTES });
