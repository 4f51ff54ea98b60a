import { notFound } from 'next/navigation';
import { orNotFound, pageId, requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { pool } from '@/lib/db/client';
import type { KbSummary } from '@/lib/kb/access';
import { studyDetail, visibleStudy, type StudyDetail } from '@/lib/studies/admin';

/**
 * For the managers' pages of one study (server only): the knowledge base and the study, 403 for a role that
 * does not manage studies, or the 404 page when the study is not visible or belongs to another knowledge base.
 */
export async function requirePageStudy(path: string, slug: string, id: string): Promise<{ kb: KbSummary; study: StudyDetail }> {
  const user = await requirePageUser(path, 'queries:manage');
  const kb = await requirePageKb(user, slug);
  const visible = await orNotFound(visibleStudy(pool(), user, pageId(id)));
  if (visible.kbId !== kb.id) notFound();
  return { kb, study: await studyDetail(pool(), visible.id) };
}
