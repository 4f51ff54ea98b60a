import type { Metadata } from 'next';
import { checkPageParam } from '@/lib/http/page-query';
import { tokenTextSchema } from '@/lib/studies/tokens';
import { ExplorerProblem } from '@/components/page-problem';
import { JoinStudy } from '@/components/studies/rate/join-study';

export const metadata: Metadata = { title: 'Join a study', robots: { index: false, follow: false } };

/**
 * A study's link: anyone with it takes part without an account (no sign-in here). A link opened from a
 * recruiting platform carries its parameters (PROLIFIC_PID=…); the server checks them. A mistyped link is said at once.
 */
export default async function JoinPage({ params, searchParams }: {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { token } = await params;
  const checked = checkPageParam(tokenTextSchema, token, 'study link', { href: '/', label: 'Go to SKB Studio' });
  if (!checked.ok) return <ExplorerProblem title="This study link is not valid" problem={checked.problem} />;
  const sent = Object.fromEntries(Object.entries(await searchParams).flatMap(([k, v]) => {
    const first = Array.isArray(v) ? v[0] : v;
    return first === undefined ? [] : [[k, first]];
  }));
  return <JoinStudy linkToken={token} params={sent} />;
}
