import type { Metadata } from 'next';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { notFound } from 'next/navigation';
import { orNotFound, requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { checkPageId } from '@/lib/http/page-query';
import { pool } from '@/lib/db/client';
import { visibleStudy } from '@/lib/studies/admin';
import { studiesPage } from '@/components/studies/api';
import { studiesBack } from '@/components/studies/study-guard';
import { raterApi } from '@/components/studies/rate/api';
import { ExplorerProblem } from '@/components/page-problem';
import { RatingScreen } from '@/components/studies/rate/rating-screen';

type Params = { slug: string; id: string };

export const metadata: Metadata = { title: 'Rate queries' };

/** A signed-in rater takes part in a study of the knowledge base; their participation is made on the first visit. */
export default async function RaterPage({ params }: { params: Promise<Params> }) {
  const { slug, id } = await params;
  const user = await requirePageUser(`${studiesPage(slug)}/${id}/rate`, 'kb:browse');
  const kb = await requirePageKb(user, slug);
  const studyId = checkPageId(id, 'study id', studiesBack(kb));
  if (!studyId.ok) return <ExplorerProblem title="Rate queries" problem={studyId.problem} />;
  const study = await orNotFound(visibleStudy(pool(), user, studyId.value));
  if (study.kbId !== kb.id) notFound();
  return (
    <div className="space-y-2">
      <Breadcrumbs kb={kb} section="studies" />
      <RatingScreen api={raterApi(study.id)} access="account" />
    </div>
  );
}
