import { publicRoute } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { participantByToken } from '@/lib/studies/participants';
import { giveConsent } from '@/lib/studies/participate';

export const POST = publicRoute<{ token: string }>(async ({ params }) => {
  await giveConsent(pool(), await participantByToken(pool(), params.token));
  return { consented: true };
});
