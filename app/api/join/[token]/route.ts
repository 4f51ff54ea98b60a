import { publicRoute } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { joinByStudyLink } from '@/lib/studies/participants';

/** The study link: issues a new anonymous participant and answers with their own token. */
export const POST = publicRoute<{ token: string }>(async ({ params }) => {
  const { token } = await joinByStudyLink(pool(), params.token);
  return { token };
});
