import { publicRoute } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { participantByToken } from '@/lib/studies/participants';
import { participation } from '@/lib/studies/participate';

/** An anonymous participant's study, items and answers so far (read only); the token grants this study only. */
export const GET = publicRoute<{ token: string }>(async ({ params }) => participation(pool(), await participantByToken(pool(), params.token)));
