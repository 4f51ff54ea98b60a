import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { checkPageId } from '@/lib/http/page-query';
import { pool } from '@/lib/db/client';
import { getLlmCall } from '@/lib/llm/calls';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { llmCallPage, synthesizePage } from '@/components/synthesis/api';
import { LlmCallView } from '@/components/synthesis/llm-call-view';
import { ExplorerProblem } from '@/components/page-problem';

type Params = { slug: string; id: string };

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { id } = await params;
  return { title: `LLM call ${id}` };
}

export default async function LlmCallPage({ params }: { params: Promise<Params> }) {
  const { slug, id } = await params;
  const user = await requirePageUser(llmCallPage(slug, id), 'queries:manage');
  const kb = await requirePageKb(user, slug);
  const callId = checkPageId(id, 'call id', { href: synthesizePage(kb.slug), label: 'Synthesize' });
  if (!callId.ok) return <ExplorerProblem title="LLM call" problem={callId.problem} />;
  const call = await getLlmCall(pool(), callId.value);
  // A call made for another knowledge base is not this one's to show.
  if (!call || call.kbId !== kb.id) notFound();
  return (
    <section className="space-y-4">
      <div>
        <Breadcrumbs kb={kb} trail={[{ href: synthesizePage(kb.slug), label: 'Synthesize' }]} />
        <h1 className="text-2xl font-semibold">LLM call #{call.id}</h1>
      </div>
      <LlmCallView call={call} />
    </section>
  );
}
