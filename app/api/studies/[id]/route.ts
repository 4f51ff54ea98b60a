import { z } from 'zod';
import { apiRoute, idParam, readJson } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { setStudyStatus, studyDetail, studyStatusSchema, visibleStudy } from '@/lib/studies/admin';

export const GET = apiRoute<{ id: string }>('queries:manage', async ({ user, params }) => {
  const study = await visibleStudy(pool(), user, idParam(params.id, 'study id'));
  return studyDetail(pool(), study.id);
});

const patchSchema = z.object({ status: studyStatusSchema }).strict();

/** Opens or closes the study (answers are taken only while it is open and within its dates). */
export const PATCH = apiRoute<{ id: string }>('queries:manage', async ({ req, user, params }) => {
  const study = await visibleStudy(pool(), user, idParam(params.id, 'study id'));
  const { status } = await readJson(req, patchSchema);
  await setStudyStatus(pool(), study.id, status, user.id);
  return { status };
});
