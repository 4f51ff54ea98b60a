import { apiRoute, json } from '@/lib/http/api';
import { saveUpload, uploadLimitBytes } from '@/lib/ingest/uploads';

/** One file for an import, the raw file as the body; streamed to disk, never held in memory. Only its uploader may use it. */
export const PUT = apiRoute('kb:manage', async ({ req, user }) => {
  const declared = req.headers.get('content-length');
  const upload = await saveUpload(req.body, new URL(req.url).searchParams.get('name'), uploadLimitBytes(), user.id, declared ? Number(declared) : undefined);
  return json(upload, 201);
}, { bodyLimit: 'streamed' });
