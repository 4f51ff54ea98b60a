import { notFound } from 'next/navigation';
import { orNotFound, requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { pool } from '@/lib/db/client';
import { checkPageId, type Checked, type PageProblem } from '@/lib/http/page-query';
import type { KbSummary } from '@/lib/kb/access';
import { studyDetail, visibleStudy, type StudyDetail } from '@/lib/studies/admin';
import { studiesPage } from './api';

/** The way back from a study page that cannot be shown: the knowledge base's studies. */
export const studiesBack = (kb: KbSummary): PageProblem['back'] => ({ href: studiesPage(kb.slug), label: `Studies of ${kb.name}` });

/**
 * For the managers' pages of one study (server only): the knowledge base and the study, 403 for a role that
 * does not manage studies, the page's problem when the id is malformed, or the 404 page when the study is not
 * visible or belongs to another knowledge base.
 */
export async function requirePageStudy(path: string, slug: string, id: string): Promise<Checked<{ kb: KbSummary; study: StudyDetail }>> {
  const user = await requirePageUser(path, 'queries:manage');
  const kb = await requirePageKb(user, slug);
  const studyId = checkPageId(id, 'study id', studiesBack(kb));
  if (!studyId.ok) return studyId;
  const visible = await orNotFound(visibleStudy(pool(), user, studyId.value));
  if (visible.kbId !== kb.id) notFound();
  return { ok: true, value: { kb, study: await studyDetail(pool(), visible.id) } };
}
