import type { Metadata } from 'next';
import { studiesPage } from '@/components/studies/api';
import { requirePageStudy } from '@/components/studies/study-guard';
import { StudyOverview } from '@/components/studies/study-overview';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { ExplorerProblem } from '@/components/page-problem';

type Params = { slug: string; id: string };

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  return { title: `Study ${(await params).id}` };
}

/** One study, for managers: its status and settings, its participants and the links that bring them in. */
export default async function StudyPage({ params }: { params: Promise<Params> }) {
  const { slug, id } = await params;
  const found = await requirePageStudy(`${studiesPage(slug)}/${id}`, slug, id);
  if (!found.ok) return <ExplorerProblem title="Study" problem={found.problem} />;
  const { kb, study } = found.value;
  return (
    <section className="space-y-4">
      <div>
        <Breadcrumbs kb={kb} section="studies" />
        <h1 className="text-2xl font-semibold" data-testid="study-name">{study.name}</h1>
      </div>
      <StudyOverview slug={kb.slug} initial={study} />
    </section>
  );
}
