import type { Metadata } from 'next';
import { pool } from '@/lib/db/client';
import { plural } from '@/lib/format/plural';
import { firstNonIntegerId } from '@/lib/queries/read';
import { getRelease } from '@/lib/queries/releases';
import { setPage } from '@/components/queries/api';
import { fmtCount, fmtPercent, splitLabel } from '@/components/queries/format';
import { MarkdownText } from '@/components/queries/markdown-text';
import { ReleaseDownload } from '@/components/queries/release-download';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { findById } from '@/lib/http/page-query';
import { ExplorerProblem } from '@/components/page-problem';
import { requirePageQuerySet, type SearchParams } from '../../../_lib/guard';
import { Panel } from '@/components/panel';
import { When } from '@/components/when';

type Params = { slug: string; name: string; n: string };

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { name, n } = await params;
  return { title: `Release ${n} of ${name}` };
}

/** One frozen release: its hash, numbers, dataset card and download. */
export default async function ReleasePage({ params, searchParams }: { params: Promise<Params>; searchParams: Promise<SearchParams> }) {
  const { slug, name, n } = await params;
  const { kb, set } = await requirePageQuerySet(`${setPage(slug, name)}/releases/${encodeURIComponent(n)}`, await searchParams, slug, name);
  const found = await findById(n, 'release number', { href: setPage(kb.slug, set.name, 'releases'), label: `Releases of ${set.name}` },
    (number) => getRelease(pool(), set.id, number));
  if (!found.ok) return <ExplorerProblem title="Release" problem={found.problem} />;
  const release = found.value;
  const { stats } = release;
  const nonInteger = await firstNonIntegerId(pool(), { releaseId: release.id });
  // Per-split rows only when the set has splits: a lone "(no split)" row would repeat "All".
  const splitRows = stats.bySplit.some((s) => s.split !== null) ? stats.bySplit : [];
  return (
    <section className="space-y-4">
      <div>
        <Breadcrumbs kb={kb} section="queries" trail={[
          { href: setPage(kb.slug, set.name, 'releases'), label: set.name },
        ]} />
        <h1 className="text-2xl font-semibold">Release {release.number}: {release.name}</h1>
        <p className="mt-1 text-sm text-slate-500">
          Made <When at={release.createdAt} />{release.createdBy && ` by ${release.createdBy}`} · {plural(release.queryCount, 'query')}
        </p>
        <p className="mt-1 break-all text-sm">
          Content hash <code className="rounded bg-slate-100 px-1 text-xs" data-testid="release-hash">sha256:{release.contentHash}</code>
          <span className="text-slate-500"> (of queries.jsonl in the download)</span>
        </p>
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        <Panel title="Numbers">
          <div className="table-scroll">
            <table className="w-full text-sm" data-testid="release-stats">
              <thead className="text-left text-slate-600">
                <tr><th scope="col" className="py-1">Split</th><th scope="col" className="text-right">Queries</th><th scope="col" className="text-right">Share</th><th scope="col" className="text-right">Several answers</th><th scope="col" className="text-right">Answers per query</th></tr>
              </thead>
              <tbody>
                {[...splitRows.map((s) => ({ ...s, label: splitLabel(s.split) })), { ...stats, label: 'All' }].map((s) => (
                  <tr key={s.label} className="border-t border-slate-100 tabular-nums">
                    <th scope="row" className="py-1 text-left font-normal">{s.label}</th>
                    <td className="text-right">{fmtCount(s.queries)}</td>
                    <td className="text-right">{fmtPercent(stats.queries ? s.queries / stats.queries : 0)}</td>
                    <td className="text-right">{fmtCount(s.multiAnswer)}</td>
                    <td className="text-right">{s.averageAnswers.toFixed(2)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="mt-2 text-xs text-slate-500">
            Query words: entropy {stats.lexical.entropyBits.toFixed(2)} bits, type-token ratio {stats.lexical.typeTokenRatio.toFixed(4)}.
          </p>
        </Panel>
        <Panel title="Download">
          <ReleaseDownload slug={kb.slug} name={set.name} number={release.number}
            starkUnavailable={nonInteger && `STaRK’s ids are integers; query ${nonInteger.query} has the id “${nonInteger.id}”.`} />
        </Panel>
      </div>
      <Panel title="Dataset card">
        <p className="mb-3 text-xs text-slate-500">The README.md of the download.</p>
        <article data-testid="dataset-card"><MarkdownText text={release.card} /></article>
      </Panel>
    </section>
  );
}
