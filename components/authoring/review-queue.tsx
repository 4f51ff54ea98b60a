'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { ReviewQueueItem } from '@/lib/authoring/review';
import { requestJson } from '../queries/api';
import { fmtCount } from '../queries/format';
import { campaignApi, reviewPage } from './api';

/** The seeds with submitted work waiting for a reviewer, in campaign order. */
export function ReviewQueue({ slug, campaignId }: { slug: string; campaignId: number }) {
  const queue = useQuery({
    queryKey: ['review-queue', campaignId],
    queryFn: () => requestJson<{ items: ReviewQueueItem[] }>(`${campaignApi(campaignId)}/review`),
  });
  if (queue.error) return <p role="alert" className="text-red-700">Could not load the review queue: {queue.error.message}</p>;
  if (!queue.data) return <p className="text-sm text-slate-500">Loading…</p>;
  if (!queue.data.items.length) return <p className="text-sm text-slate-500">Nothing is waiting for review.</p>;
  return (
    <table className="w-full rounded-lg bg-white text-sm" data-testid="review-queue">
      <thead className="text-left text-slate-600">
        <tr>
          <th scope="col" className="px-2 py-1">Seed</th><th scope="col">Type</th><th scope="col">External id</th>
          <th scope="col" className="text-right">Submitted</th><th scope="col" className="text-right">Approved</th>
        </tr>
      </thead>
      <tbody>
        {queue.data.items.map((s) => (
          <tr key={s.entityId} className="border-t border-slate-100">
            <td className="px-2 py-1.5"><Link href={reviewPage(slug, campaignId, s.entityId)} className="font-medium text-blue-700 hover:underline">{s.name}</Link></td>
            <td>{s.type}</td>
            <td className="font-mono text-xs">{s.externalId}</td>
            <td className="text-right tabular-nums">{fmtCount(s.submitted)}</td>
            <td className="text-right tabular-nums">{fmtCount(s.approved)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
