import { publicRoute } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { participantByToken } from '@/lib/studies/participants';
import { startParticipation } from '@/lib/studies/participate';

/** Starts the participation: hands out the participant's items (once) and answers the participant's view. */
export const POST = publicRoute<{ token: string }>(async ({ params }) => startParticipation(pool(), await participantByToken(pool(), params.token)));
