import type { Metadata } from 'next';
import { z } from 'zod';
import { setNameSchema } from '@/lib/queries/sets';
import { requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { DEFAULT_INSTRUCTIONS } from '@/lib/studies/create';
import { studiesPage } from '@/components/studies/api';
import { StudyForm } from '@/components/studies/study-form';
import { Breadcrumbs } from '@/components/breadcrumbs';

export const metadata: Metadata = { title: 'New study' };

/** `?querySet=&sample=` (from a query set's page) prefill the first source; values that do not fit are ignored. */
const prefillSchema = z.object({ querySet: setNameSchema, sample: z.coerce.number().int().min(1).max(100_000).optional() });

export default async function NewStudyPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { slug } = await params;
  const prefill = prefillSchema.safeParse(await searchParams);
  const source = prefill.success ? { querySet: prefill.data.querySet, sample: prefill.data.sample ? String(prefill.data.sample) : '' } : undefined;
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
      <StudyForm slug={kb.slug} defaultInstructions={DEFAULT_INSTRUCTIONS} source={source} />
    </section>
  );
}
