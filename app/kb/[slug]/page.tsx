import Link from 'next/link';
import { plural } from '@/lib/format/plural';
import { requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { db, readPool } from '@/lib/db/client';
import { canManageKb } from '@/lib/kb/members';
import { kbStatistics } from '@/lib/kb/stats';
import { CountTable } from '@/components/count-table';
import { DegreeChart } from '@/components/degree-chart';
import { KbAccessPanel } from '@/components/kb-access-panel';
import { SchemaMap } from '@/components/schema-map';
import { Panel } from '@/components/panel';

export default async function KbPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requirePageUser(`/kb/${slug}`, 'kb:browse');
  const kb = await requirePageKb(user, slug);
  const [stats, manages] = await Promise.all([kbStatistics(readPool(), kb.id, 20), canManageKb(db(), user, kb.id)]);
  return (
    <section className="space-y-6">
      <div>
        <p className="text-sm text-slate-500"><Link href="/" className="hover:underline">Knowledge bases</Link> /</p>
        <h1 className="text-2xl font-semibold">{kb.name}</h1>
        <p className="mt-1 max-w-3xl text-slate-600">{kb.description}</p>
        <p className="mt-1 text-xs text-slate-500">Source: {kb.source || '—'} · Licence: {kb.license || '—'}</p>
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        <Panel title="Entity types">
          <CountTable rows={stats.entityTypes.map((t) => ({ key: t.name, label: t.name, count: t.count }))} />
        </Panel>
        <Panel title="Relation types">
          <CountTable testId="relation-types" rows={stats.relations.map((r) => ({
            key: r.name,
            label: r.symmetric ? <>{r.name} <span className="text-xs text-slate-500" data-testid="symmetric-relation">↔ symmetric</span></> : r.name,
            count: r.count,
          }))} />
          {stats.relations.some((r) => r.symmetric) && (
            <p className="mt-2 text-xs text-slate-500">Edge counts. ↔ symmetric: every edge is also stored in reverse, so the explorer shows the relation once and counts each neighbour once.</p>
          )}
        </Panel>
      </div>
      <Panel title="Type map">
        <SchemaMap entityTypes={stats.entityTypes} triples={stats.triples} symmetric={stats.relations.filter((r) => r.symmetric).map((r) => r.name)} />
      </Panel>
      <div className="grid gap-4 md:grid-cols-2">
        <Panel title="Degree distribution">
          <DegreeChart buckets={stats.degreeHistogram} />
        </Panel>
        <Panel title="Typed triples">
          <div className="max-h-64 overflow-y-auto">
            <CountTable
              testId="triple-table"
              rows={stats.triples.map((t) => ({
                key: `${t.source}|${t.relation}|${t.target}`,
                label: <>{t.source} <span className="text-slate-500">–{t.relation}→</span> {t.target}</>,
                count: t.count,
              }))}
            />
          </div>
        </Panel>
      </div>
      {manages && <KbAccessPanel slug={kb.slug} />}
      <Panel title="Most connected entities">
        <ul className="divide-y divide-slate-100" data-testid="entity-list">
          {stats.hubs.map((e) => (
            <li key={e.id} className="flex items-center justify-between py-1.5 text-sm">
              <Link href={`/kb/${kb.slug}/entities/${e.id}`} className="text-blue-700 hover:underline">{e.name}</Link>
              <span className="text-slate-500">{e.type} · {plural(e.degree, 'edge')}</span>
            </li>
          ))}
        </ul>
      </Panel>
    </section>
  );
}
