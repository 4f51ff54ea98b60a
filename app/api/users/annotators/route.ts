import { apiRoute } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { annotatorCandidates } from '@/lib/authoring/campaign-detail';

/** Who can be made an annotator of a campaign. */
export const GET = apiRoute('queries:manage', async () => ({ users: await annotatorCandidates(pool()) }));
