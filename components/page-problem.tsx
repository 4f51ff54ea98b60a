import Link from 'next/link';
import type { PageProblem } from '@/lib/http/page-query';

/**
 * What a page shows when its address asks for something it cannot show (a bad parameter, an unknown id):
 * what is wrong, at once, and the way back.
 */
export function PageProblemPanel({ problem }: { problem: PageProblem }) {
  return (
    <div role="alert" className="space-y-2 rounded-lg border border-red-200 bg-red-50 p-4 text-sm" data-testid="page-problem">
      <p className="font-medium text-red-900">{problem.message}</p>
      {problem.problems.length > 1 && (
        <ul className="list-disc space-y-0.5 pl-5 text-red-900">
          {problem.problems.map((p) => <li key={`${p.field}:${p.message}`}><code>{p.field}</code> {p.message}</li>)}
        </ul>
      )}
      <p><Link href={problem.back.href} className="font-medium text-blue-700 hover:underline">{problem.back.label}</Link></p>
    </div>
  );
}

/** A page's heading over its problem: the page the reader asked for, and why it shows nothing. */
export function ExplorerProblem({ title, problem }: { title: string; problem: PageProblem }) {
  return (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold">{title}</h1>
      <PageProblemPanel problem={problem} />
    </section>
  );
}
