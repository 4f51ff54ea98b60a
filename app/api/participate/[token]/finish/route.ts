import { publicRoute } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { participantByToken } from '@/lib/studies/participants';
import { finishParticipation } from '@/lib/studies/participate';

/** Marks the participation finished; refused while required answers are missing. */
export const POST = publicRoute<{ token: string }>(async ({ params }) => {
  await finishParticipation(pool(), await participantByToken(pool(), params.token));
  return { finished: true };
});
