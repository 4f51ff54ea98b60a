import type { Metadata } from 'next';
import { requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { DEFAULT_INSTRUCTIONS } from '@/lib/studies/create';
import { studiesPage } from '@/components/studies/api';
import { StudyForm } from '@/components/studies/study-form';
import { Breadcrumbs } from '@/components/breadcrumbs';

export const metadata: Metadata = { title: 'New study' };

export default async function NewStudyPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requirePageUser(`${studiesPage(slug)}/new`, 'queries:manage');
  const kb = await requirePageKb(user, slug);
  return (
    <section className="space-y-4">
      <div>
        <Breadcrumbs kb={kb} section="studies" />
        <h1 className="text-2xl font-semibold">New study</h1>
        <p className="mt-1 max-w-3xl text-slate-600">
          Choose the query sets to rate, what participants rate them on and how the items are shared out. The items are copied
          into the study when it is created, so later edits of a set do not change it.
        </p>
      </div>
      <StudyForm slug={kb.slug} defaultInstructions={DEFAULT_INSTRUCTIONS} />
    </section>
  );
}
