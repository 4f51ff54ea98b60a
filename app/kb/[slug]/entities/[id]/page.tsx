import Link from 'next/link';
import { plural } from '@/lib/format/plural';
import { requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { findById } from '@/lib/http/page-query';
import { readDb, readPool } from '@/lib/db/client';
import { getEntity, relationCounts } from '@/lib/kb/entity';
import { distinctNeighbourCount } from '@/lib/kb/hub-counts';
import { groupLabel, onceEach } from '@/lib/kb/relation-groups';
import { kbSchemaSummary } from '@/lib/kb/schema-summary';
import { CountTable } from '@/components/count-table';
import { DocumentView } from '@/components/document-view';
import { EntityGraph } from '@/components/entity-graph';
import { NeighbourList } from '@/components/neighbour-list';
import { ExplorerProblem } from '@/components/page-problem';
import { RetrieverView } from '@/components/retriever-view';
import { TypeBadge } from '@/components/type-legend';

export default async function EntityPage({ params }: { params: Promise<{ slug: string; id: string }> }) {
  const { slug, id } = await params;
  const user = await requirePageUser(`/kb/${slug}/entities/${id}`, 'kb:browse');
  const kb = await requirePageKb(user, slug);
  const base = `/kb/${kb.slug}`;
  const found = await findById(id, 'entity id', { href: `${base}/search`, label: `Search ${kb.name}` }, (entityId) => getEntity(readPool(), kb.id, entityId));
  if (!found.ok) return <ExplorerProblem title="Entity" problem={found.problem} />;
  const entity = found.value;
  const [relations, schema, neighbours] = await Promise.all([
    relationCounts(readPool(), kb.id, entity.id).then(onceEach), kbSchemaSummary(readDb(), kb.id), distinctNeighbourCount(readPool(), kb.id, entity.id)]);
  const kbTypes = schema.nodeTypes.map((t) => t.name);

  return (
    <section className="space-y-4">
      <div>
        <p className="text-sm text-slate-500">
          <Link href="/" className="hover:underline">Knowledge bases</Link> / <Link href={base} className="hover:underline">{kb.name}</Link> /
        </p>
        <h1 className="text-2xl font-semibold" data-testid="entity-name">{entity.name}</h1>
        <p className="text-sm text-slate-500">
          <TypeBadge kbTypes={kbTypes} type={entity.type} /> · id {entity.id} · external id <code>{entity.externalId}</code> · <span data-testid="entity-neighbour-count">{plural(neighbours, 'neighbour')}</span> ({plural(entity.degree, 'edge')})
          {entity.aliases.length > 0 && <> · also known as {entity.aliases.join(', ')}</>}
        </p>
        <nav aria-label="Explore from this entity" className="mt-2 flex flex-wrap gap-4 text-sm">
          <Link href={`${base}/graph?entity=${entity.id}`} className="text-blue-700 hover:underline">Open in graph</Link>
          <Link href={`${base}/metapaths?start=${entity.id}`} className="text-blue-700 hover:underline">Metapaths from here</Link>
          <Link href={`${base}/paths?from=${entity.id}`} className="text-blue-700 hover:underline">Paths from here</Link>
        </nav>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <article className="rounded-lg border border-slate-200 bg-white p-4" data-testid="entity-document">
          <h2 className="mb-2 font-medium">Document</h2>
          <DocumentView document={entity.document} />
        </article>
        <div className="space-y-4">
          <div className="rounded-lg border border-slate-200 bg-white p-4">
            <h2 className="mb-2 font-medium">Neighbours</h2>
            <EntityGraph kbSlug={kb.slug} entityId={entity.id} />
          </div>
          <div className="rounded-lg border border-slate-200 bg-white p-4">
            <h2 className="mb-2 font-medium">Relations</h2>
            <CountTable
              testId="relation-summary"
              rows={relations.map((r) => ({ key: `${r.relation}-${r.direction}`, label: groupLabel(r), count: r.count }))}
            />
          </div>
        </div>
      </div>
      <div className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="mb-2 font-medium">Neighbour list</h2>
        <NeighbourList kbSlug={kb.slug} entityId={entity.id} relations={relations} />
      </div>
      <div className="rounded-lg border border-slate-200 bg-white p-4">
        <RetrieverView kbSlug={kb.slug} entityId={entity.id} />
      </div>
    </section>
  );
}
