import Link from 'next/link';
import type { StudySummary } from '@/lib/studies/admin';
import { fmtCount } from '../queries/format';
import { ratePage, studyPage } from './api';
import { StudyStatus } from './study-status';
import { When } from '@/components/when';

/**
 * The knowledge base's studies with their progress. Managers open a study's page from its name; everyone who
 * rates gets a "Take part" link while a study takes answers.
 */
export function StudyList({ slug, items, canManage }: { slug: string; items: StudySummary[]; canManage: boolean }) {
  if (!items.length) return <p className="text-sm text-slate-500">No study yet.</p>;
  const count = (n: number) => <td className="text-right tabular-nums">{fmtCount(n)}</td>;
  const date = (d: string | null) => <td className="pl-4 text-slate-600">{d ? <When at={d} /> : '—'}</td>;
  return (
    <div className="table-scroll">
      <table className="w-full rounded-lg bg-white text-sm" data-testid="study-list">
        <thead className="text-left text-slate-600">
          <tr>
            <th scope="col" className="px-2 py-1">Name</th><th scope="col">Status</th>
            <th scope="col" className="text-right">Items</th><th scope="col" className="text-right">Participants</th>
            <th scope="col" className="text-right">Finished</th><th scope="col" className="text-right">Ratings</th>
            <th scope="col" className="pl-4">Opens</th><th scope="col" className="pl-4">Closes</th>
            <th scope="col"><span className="sr-only">Take part</span></th>
          </tr>
        </thead>
        <tbody>
          {items.map((s) => (
            <tr key={s.id} className="border-t border-slate-100">
              <td className="px-2 py-1.5">
                {canManage ? <Link href={studyPage(slug, s.id)} className="font-medium text-blue-700 hover:underline">{s.name}</Link> : <span className="font-medium">{s.name}</span>}
              </td>
              <td><StudyStatus study={s} /></td>
              {count(s.items)}{count(s.participants)}{count(s.finished)}{count(s.ratings)}
              {date(s.opensAt)}{date(s.closesAt)}
              <td className="px-2 text-right">
                {s.takingAnswers && <Link href={ratePage(slug, s.id)} className="text-blue-700 hover:underline" aria-label={`Take part in ${s.name}`}>Take part</Link>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
