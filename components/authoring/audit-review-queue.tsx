'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { AuditQueueItem } from '@/lib/authoring/audit-review';
import { requestJson } from '../queries/api';
import { fmtCount } from '../queries/format';
import { auditReviewPage, campaignApi } from './api';

export const auditQueueKey = (campaignId: number) => ['audit-review-queue', campaignId] as const;

/** The audited queries with submitted work waiting for a reviewer, in campaign order. */
export function useAuditQueue(campaignId: number, enabled = true) {
  return useQuery({
    queryKey: auditQueueKey(campaignId),
    queryFn: () => requestJson<{ items: AuditQueueItem[] }>(`${campaignApi(campaignId)}/audit/review`),
    enabled,
  });
}

export function AuditReviewQueue({ slug, campaignId }: { slug: string; campaignId: number }) {
  const queue = useAuditQueue(campaignId);
  if (queue.error) return <p role="alert" className="text-red-700">Could not load the review queue: {queue.error.message}</p>;
  if (!queue.data) return <p className="text-sm text-slate-500">Loading…</p>;
  if (!queue.data.items.length) return <p className="text-sm text-slate-500">Nothing is waiting for review.</p>;
  return (
    <div className="table-scroll">
      <table className="w-full rounded-lg bg-white text-sm" data-testid="audit-review-queue">
        <thead className="text-left text-slate-600">
          <tr>
            <th scope="col" className="px-2 py-1">Query</th><th scope="col">Text</th>
            <th scope="col" className="text-right">Submitted</th><th scope="col" className="px-2 text-right">Approved</th>
          </tr>
        </thead>
        <tbody>
          {queue.data.items.map((q) => (
            <tr key={q.number} className="border-t border-slate-100 align-top">
              <td className="px-2 py-1.5"><Link href={auditReviewPage(slug, campaignId, q.number)} className="font-medium text-blue-700 hover:underline">Query {q.externalId}</Link></td>
              <td className="py-1.5">{q.text}</td>
              <td className="text-right tabular-nums">{fmtCount(q.submitted)}</td>
              <td className="px-2 text-right tabular-nums">{fmtCount(q.approved)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
