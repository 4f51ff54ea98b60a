import type { Metadata } from 'next';
import { studiesPage, studyPage } from '@/components/studies/api';
import { requirePageStudy } from '@/components/studies/study-guard';
import { StudyResults } from '@/components/studies/study-results';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { ExplorerProblem } from '@/components/page-problem';

type Params = { slug: string; id: string };

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  return { title: `Results of study ${(await params).id}` };
}

/** A study's results, for managers. */
export default async function StudyResultsPage({ params }: { params: Promise<Params> }) {
  const { slug, id } = await params;
  const found = await requirePageStudy(`${studiesPage(slug)}/${id}/results`, slug, id);
  if (!found.ok) return <ExplorerProblem title="Results" problem={found.problem} />;
  const { kb, study } = found.value;
  return (
    <section className="space-y-4">
      <div>
        <Breadcrumbs kb={kb} section="studies" trail={[
          { href: studyPage(kb.slug, study.id), label: study.name },
        ]} />
        <h1 className="text-2xl font-semibold">Results</h1>
      </div>
      <StudyResults studyId={study.id} />
    </section>
  );
}
