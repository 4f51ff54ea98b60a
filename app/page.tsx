import Link from 'next/link';
import { plural } from '@/lib/format/plural';
import { requirePageUser } from '@/lib/auth/page-guard';
import { db } from '@/lib/db/client';
import { listVisibleKbs } from '@/lib/kb/access';

export default async function HomePage() {
  const user = await requirePageUser('/', 'kb:browse');
  const kbs = await listVisibleKbs(db(), user);
  return (
    <section>
      <h1 className="mb-4 text-2xl font-semibold">Knowledge bases</h1>
      {kbs.length === 0 ? (
        <p className="text-slate-600">No knowledge base is visible to you yet. An admin can grant you access.</p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2" data-testid="kb-list">
          {kbs.map((kb) => (
            <li key={kb.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
              <div className="flex items-baseline justify-between gap-2">
                <Link href={`/kb/${kb.slug}`} className="text-lg font-medium text-blue-700 hover:underline">{kb.name}</Link>
                <span className={`rounded px-2 py-0.5 text-xs ${kb.visibility === 'PUBLIC' ? 'bg-green-50 text-green-700' : 'bg-amber-50 text-amber-800'}`}>
                  {kb.visibility.toLowerCase()}
                </span>
              </div>
              <p className="mt-1 line-clamp-3 text-sm text-slate-600">{kb.description}</p>
              <p className="mt-2 text-xs text-slate-500">
                {plural(kb.entityCount, 'entity')} · {plural(Number(kb.edgeCount), 'edge')}
                {kb.license && <> · {kb.license}</>}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
