import { errorResponse, publicRoute } from '@/lib/http/api';
import { clientAddress } from '@/lib/http/client-address';
import { pool } from '@/lib/db/client';
import { joinByStudyLink, JoinLimited } from '@/lib/studies/participants';

/**
 * The study link: issues a new anonymous participant and answers with their own token. Joins are limited per
 * address and per link: 429 with Retry-After beyond that.
 */
export const POST = publicRoute<{ token: string }>(async ({ req, params }) => {
  try {
    const { token } = await joinByStudyLink(pool(), params.token, clientAddress(req.headers));
    return { token };
  } catch (err) {
    if (!(err instanceof JoinLimited)) throw err;
    const res = errorResponse(err);
    res.headers.set('retry-after', String(err.retryAfterSeconds));
    return res;
  }
});
