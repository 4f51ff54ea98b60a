import { z } from 'zod';
import { errorResponse, KIB, parseJsonBody, parseWith, publicRoute, readText } from '@/lib/http/api';
import { clientAddress } from '@/lib/http/client-address';
import { pool } from '@/lib/db/client';
import { crowdParamsSchema } from '@/lib/studies/crowd';
import { joinThroughLink } from '@/lib/studies/crowd-join';
import { JoinLimited } from '@/lib/studies/participants';

const bodySchema = z.object({ params: crowdParamsSchema.default({}) }).strict();

/** The body is optional: a plain study link needs none; a crowd link sends the parameters it was opened with. */
async function readBody(req: Request): Promise<z.output<typeof bodySchema>> {
  const text = await readText(req);
  return text.trim() === '' ? { params: {} } : parseWith(bodySchema, parseJsonBody(text), 'body');
}

/**
 * The study link: issues a new anonymous participant and answers with their own token. A crowd link (set up
 * for a recruiting platform) takes the platform's parameters and answers the token of the participant with that
 * id, made on their first visit, or, when a new one cannot take part (closed, past the cap), `token: null` and the
 * outcome to show with its code. Joins are limited per address and per link: 429 with Retry-After beyond that.
 */
export const POST = publicRoute<{ token: string }>(async ({ req, params }) => {
  try {
    const { token, outcome } = await joinThroughLink(pool(), params.token, clientAddress(req.headers), (await readBody(req)).params);
    return { token, outcome };
  } catch (err) {
    if (!(err instanceof JoinLimited)) throw err;
    const res = errorResponse(err);
    res.headers.set('retry-after', String(err.retryAfterSeconds));
    return res;
  }
}, { bodyLimit: 32 * KIB });
