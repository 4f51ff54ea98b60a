'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import type { AssignmentView } from '@/lib/authoring/assignments';
import type { CampaignDetail, OwnAssignment } from '@/lib/authoring/campaign-detail';
import type { ReviewQueueItem } from '@/lib/authoring/review';
import { requestJson, setPage } from '../queries/api';
import { plural } from '@/lib/format/plural';
import { MarkdownText } from '../queries/markdown-text';
import { CloseWithConfirm } from '../close-confirm';
import { auditReviewPage, auditWorkPage, campaignApi, reviewPage, workPage } from './api';
import { AuditErrorRates } from './audit-error-rates';
import { useAuditQueue } from './audit-review-queue';
import { CampaignDashboard } from './campaign-dashboard';
import { StatusBadge } from './status-badge';
import { When } from '@/components/when';

export interface CampaignView {
  campaign: CampaignDetail;
  isAnnotator: boolean;
  canManage: boolean;
  mine: OwnAssignment[];
}

export const campaignKey = (id: number) => ['campaign', id] as const;

/** Where an assignment is worked on: the audit screen for an audit's queries, the workspace for seeds. */
const assignmentPage = (c: CampaignDetail, assignmentId: number) => (c.kind === 'audit' ? auditWorkPage : workPage)(c.kbSlug, c.id, assignmentId);

const BUTTON = 'rounded bg-blue-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-700 disabled:opacity-60';

/** A campaign's page: its rules and guidelines, the annotator's own work, and for managers its controls and dashboard. */
export function CampaignOverview({ campaignId }: { campaignId: number }) {
  const view = useQuery({
    queryKey: campaignKey(campaignId),
    queryFn: () => requestJson<CampaignView>(campaignApi(campaignId)),
  });
  if (view.error) return <p role="alert" className="text-red-700">Could not load the campaign: {view.error.message}</p>;
  if (!view.data) return <p className="text-sm text-slate-500">Loading…</p>;
  const { campaign, isAnnotator, canManage, mine } = view.data;
  return (
    <div className="space-y-6">
      <Facts campaign={campaign} />
      <details className="rounded-lg border border-slate-200 bg-white p-4" data-testid="guidelines">
        <summary className="cursor-pointer font-medium">Guidelines</summary>
        <div className="mt-3"><MarkdownText text={campaign.guidelines} /></div>
      </details>
      {canManage && <ManagerControls campaign={campaign} />}
      {isAnnotator && <AnnotatorWork campaign={campaign} mine={mine} />}
      {!isAnnotator && !canManage && (
        <p role="note" className="rounded bg-slate-100 px-3 py-2 text-sm text-slate-700" data-testid="not-annotator">
          You are not an annotator of this campaign, so it hands you no seeds; its guidelines are shown for reading. A curator can add you to it.
        </p>
      )}
      {canManage && <CampaignDashboard campaignId={campaign.id} />}
      {canManage && campaign.kind === 'audit' && <AuditErrorRates campaignId={campaign.id} />}
    </div>
  );
}

function Facts({ campaign: c }: { campaign: CampaignDetail }) {
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-600" data-testid="campaign-facts">
      <StatusBadge status={c.status} testId="campaign-status" />
      {c.kind === 'audit' && c.querySet && (
        <><span data-testid="campaign-audits">audits the queries of <Link href={setPage(c.kbSlug, c.querySet)} className="text-blue-700 hover:underline">{c.querySet}</Link>
          {c.auditRelease !== null && ` (release ${c.auditRelease})`}; approved fixes edit the set</span>·</>
      )}
      {c.validates && (
        <><span data-testid="campaign-validates">validates the queries of <Link href={setPage(c.kbSlug, c.validates)} className="text-blue-700 hover:underline">{c.validates}</Link></span>·</>
      )}
      <span>{plural(c.seeds, c.kind === 'audit' ? 'query' : 'seed')}</span>·
      <span>{plural(c.annotatorsPerSeed, 'annotator')} per {c.kind === 'audit' ? 'query' : 'seed'}</span>·
      <span>leases of {c.leaseMinutes} min</span>·
      {c.kind !== 'audit' && (
        <>
          <span>{c.leakPolicy === 'block' ? 'queries naming their seed are refused' : 'queries naming their seed are flagged'}</span>·
          {c.bm25Target !== null && <><span data-testid="campaign-bm25-target">answers should not be in BM25’s top {c.bm25Target}</span>·</>}
          <span>
            approved queries go to{' '}
            {c.querySet ? <Link href={setPage(c.kbSlug, c.querySet)} className="text-blue-700 hover:underline">{c.querySet}</Link> : 'no query set'}
          </span>·
        </>
      )}
      <span>created <When at={c.createdAt} /></span>
    </p>
  );
}

function ManagerControls({ campaign: c }: { campaign: CampaignDetail }) {
  const queryClient = useQueryClient();
  const audit = c.kind === 'audit';
  const seedQueue = useQuery({
    queryKey: ['review-queue', c.id],
    queryFn: () => requestJson<{ items: ReviewQueueItem[] }>(`${campaignApi(c.id)}/review`),
    enabled: !audit,
  });
  const auditQueue = useAuditQueue(c.id, audit);
  const queue = audit ? auditQueue : seedQueue;
  const setStatus = useMutation({
    mutationFn: (status: CampaignDetail['status']) => requestJson<{ status: string }>(campaignApi(c.id), { method: 'PATCH', json: { status } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: campaignKey(c.id) }),
  });
  const waiting = queue.data?.items.length;
  return (
    <div className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm">
      {c.status === 'OPEN' ? (
        <CloseWithConfirm label="Close campaign" keepLabel="Keep it open" pending={setStatus.isPending} onConfirm={() => setStatus.mutate('CLOSED')}
          question="Close this campaign? No seed will be handed out any more; work already leased can still be finished and reviewed, and you can open it again." />
      ) : (
        <button type="button" className={BUTTON} disabled={setStatus.isPending} onClick={() => setStatus.mutate('OPEN')}>Open</button>
      )}
      <span className="text-slate-600">
        {c.status === 'OPEN' ? 'Annotators can take seeds.' : 'No seed is handed out; work already leased can still be finished and reviewed.'}
      </span>
      <Link href={(audit ? auditReviewPage : reviewPage)(c.kbSlug, c.id)} className="ml-auto rounded border border-slate-300 px-3 py-1.5 text-blue-700 hover:bg-blue-50" data-testid="review-link">
        Review{waiting === undefined ? '' : ` (${waiting} waiting)`}
      </Link>
      {setStatus.error && <p role="alert" className="w-full text-red-700">{setStatus.error.message}</p>}
      {queue.error && <p role="alert" className="w-full text-red-700">Could not load the review queue: {queue.error.message}</p>}
    </div>
  );
}

function AnnotatorWork({ campaign: c, mine }: { campaign: CampaignDetail; mine: OwnAssignment[] }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  // A live lease is continued where it is; otherwise a claim leases the next free seed.
  const live = mine.find((a) => a.status === 'ACTIVE');
  const claim = useMutation({
    mutationFn: () => requestJson<{ assignment: AssignmentView | null }>(`${campaignApi(c.id)}/claim`, { method: 'POST' }),
    onSuccess: ({ assignment }) => {
      if (assignment) router.push(assignmentPage(c, assignment.id));
      else return queryClient.invalidateQueries({ queryKey: campaignKey(c.id) });
    },
  });
  return (
    <section aria-labelledby="my-work-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <h2 id="my-work-heading" className="text-lg font-medium">Your work</h2>
      <div className="flex flex-wrap items-center gap-3">
        {live ? (
          <Link href={assignmentPage(c, live.assignmentId)} className={BUTTON}>Continue</Link>
        ) : c.status === 'OPEN' ? (
          <button type="button" className={BUTTON} disabled={claim.isPending} onClick={() => claim.mutate()}>
            {claim.isPending ? 'Finding a seed…' : c.kind === 'audit' ? 'Start auditing' : 'Start annotating'}
          </button>
        ) : (
          <p className="text-slate-600">The campaign is {c.status.toLowerCase()}: no new seed is handed out.</p>
        )}
        {claim.data && !claim.data.assignment && (
          <p role="status" className="text-slate-700" data-testid="no-seed-left">
            No seed is left for you: every seed has its {c.annotatorsPerSeed} {c.annotatorsPerSeed === 1 ? 'annotator' : 'annotators'} or you have had it already.
          </p>
        )}
        {claim.error && <p role="alert" className="text-red-700">{claim.error.message}</p>}
      </div>
      <MyAssignments campaign={c} mine={mine} />
    </section>
  );
}

function MyAssignments({ campaign: c, mine }: { campaign: CampaignDetail; mine: OwnAssignment[] }) {
  if (!mine.length) return <p className="text-slate-500">You have no assignment in this campaign yet.</p>;
  return (
    <table className="w-full" data-testid="my-assignments">
      <caption className="mb-1 text-left font-medium">My assignments</caption>
      <thead className="text-left text-slate-600">
        <tr><th scope="col" className="py-1">{c.kind === 'audit' ? 'Query' : 'Seed'}</th><th scope="col">Status</th><th scope="col">Reviewer’s note</th><th scope="col">Submitted</th><th scope="col"><span className="sr-only">Open</span></th></tr>
      </thead>
      <tbody>
        {mine.map((a) => {
          const editable = a.status === 'ACTIVE' || a.status === 'RETURNED';
          return (
            <tr key={a.assignmentId} className="border-t border-slate-100 align-top">
              <td className="py-1 pr-3">{a.name} <span className="text-xs text-slate-500">{a.type} · {a.externalId}</span></td>
              <td className="pr-3"><StatusBadge status={a.status} /></td>
              <td className="pr-3">{a.reviewNote ?? ''}</td>
              <td className="pr-3 text-slate-600">{a.submittedAt ? <When at={a.submittedAt} /> : ''}</td>
              <td>
                <Link href={assignmentPage(c, a.assignmentId)} className="text-blue-700 hover:underline">{editable ? 'Continue' : 'View'}</Link>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
