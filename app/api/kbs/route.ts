import { apiRoute } from '@/lib/http/api';
import { db } from '@/lib/db/client';
import { listVisibleKbs } from '@/lib/kb/access';

/** The knowledge bases the caller can see. */
export const GET = apiRoute('kb:browse', async ({ user }) => ({ knowledgeBases: await listVisibleKbs(db(), user) }));
