import { apiRoute, idParam, readJson } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { setStudyCrowd, studyCrowdSchema, visibleStudy } from '@/lib/studies/admin';

/** Sets up the study link for a recruiting platform (`{ crowd: {...} }`), or back to a plain link (`{ crowd: null }`). */
export const PUT = apiRoute<{ id: string }>('queries:manage', async ({ req, user, params }) => {
  const study = await visibleStudy(pool(), user, idParam(params.id, 'study id'));
  const { crowd } = await readJson(req, studyCrowdSchema);
  await setStudyCrowd(pool(), study.id, crowd, user.id);
  return { crowd };
});
