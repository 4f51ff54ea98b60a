import type { Metadata } from 'next';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { notFound } from 'next/navigation';
import { orNotFound, pageId, requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { pool } from '@/lib/db/client';
import { visibleStudy } from '@/lib/studies/admin';
import { raterApi, raterPage } from '@/components/studies/rate/api';
import { RatingScreen } from '@/components/studies/rate/rating-screen';

type Params = { slug: string; id: string };

export const metadata: Metadata = { title: 'Rate queries' };

/** A signed-in rater takes part in a study of the knowledge base; their participation is made on the first visit. */
export default async function RaterPage({ params }: { params: Promise<Params> }) {
  const { slug, id } = await params;
  const user = await requirePageUser(raterPage(slug, pageId(id)), 'kb:browse');
  const kb = await requirePageKb(user, slug);
  const study = await orNotFound(visibleStudy(pool(), user, pageId(id)));
  if (study.kbId !== kb.id) notFound();
  return (
    <div className="space-y-2">
      <Breadcrumbs kb={kb} section="studies" />
      <RatingScreen api={raterApi(study.id)} access="account" />
    </div>
  );
}
