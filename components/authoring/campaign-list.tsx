import Link from 'next/link';
import type { CampaignSummary } from '@/lib/authoring/list';
import { setPage } from '../queries/api';
import { fmtCount } from '../queries/format';
import { campaignPage } from './api';
import { StatusBadge } from './status-badge';

/** The knowledge base's campaigns with their progress counts. */
export function CampaignList({ slug, items }: { slug: string; items: CampaignSummary[] }) {
  if (!items.length) return <p className="text-sm text-slate-500">No campaign yet.</p>;
  const count = (n: number) => <td className="text-right tabular-nums">{fmtCount(n)}</td>;
  return (
    <div className="table-scroll">
      <table className="w-full rounded-lg bg-white text-sm" data-testid="campaign-list">
        <thead className="text-left text-slate-600">
          <tr>
            <th scope="col" className="px-2 py-1">Name</th><th scope="col">Status</th>
            <th scope="col" className="text-right"><abbr title="Annotators per seed">k</abbr></th>
            <th scope="col" className="text-right">Seeds</th><th scope="col" className="text-right">Annotators</th>
            <th scope="col" className="text-right">Active</th><th scope="col" className="text-right">Submitted</th>
            <th scope="col" className="text-right">Approved</th><th scope="col" className="text-right">Skipped</th>
            <th scope="col" className="pl-4">Query set</th>
          </tr>
        </thead>
        <tbody>
          {items.map((c) => (
            <tr key={c.id} className="border-t border-slate-100">
              <td className="px-2 py-1.5"><Link href={campaignPage(slug, c.id)} className="font-medium text-blue-700 hover:underline">{c.name}</Link></td>
              <td><StatusBadge status={c.status} /></td>
              {count(c.annotatorsPerSeed)}{count(c.seeds)}{count(c.annotators)}
              {count(c.active)}{count(c.submitted)}{count(c.approved)}{count(c.skipped)}
              <td className="pl-4">
                {c.querySet ? <Link href={setPage(slug, c.querySet)} className="text-blue-700 hover:underline">{c.querySet}</Link> : <span className="text-slate-500">none</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
