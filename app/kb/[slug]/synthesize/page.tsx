import type { Metadata } from 'next';
import { requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { pool } from '@/lib/db/client';
import { metapathSchema } from '@/lib/kb/metapath';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { synthesizePage } from '@/components/synthesis/api';
import { SynthesisWorkbench } from '@/components/synthesis/synthesis-workbench';

export const metadata: Metadata = { title: 'Synthesize queries' };

export default async function SynthesizePage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requirePageUser(synthesizePage(slug), 'queries:manage');
  const kb = await requirePageKb(user, slug);
  const { types } = await metapathSchema(pool(), kb.id);
  return (
    <section className="space-y-4">
      <div>
        <Breadcrumbs kb={kb} />
        <h1 className="text-2xl font-semibold">Synthesize queries</h1>
        <p className="mt-1 max-w-3xl text-slate-600">
          Each query starts from a relational template and a seed: the answers the template reaches from the seed are computed
          exactly, properties are read from one answer’s document, a query is written from both, and every answer is checked
          against the properties. Preview five attempts before running the job; each query records how it was made.
        </p>
      </div>
      <SynthesisWorkbench slug={kb.slug} types={types.map((t) => t.name)} />
    </section>
  );
}
