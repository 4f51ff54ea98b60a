import type { Metadata } from 'next';
import { checkPageParam } from '@/lib/http/page-query';
import { tokenTextSchema } from '@/lib/studies/tokens';
import { ExplorerProblem } from '@/components/page-problem';
import { JoinStudy } from '@/components/studies/rate/join-study';

export const metadata: Metadata = { title: 'Join a study', robots: { index: false, follow: false } };

/** A study's link: anyone with it takes part without an account (no sign-in here); a mistyped one is said at once. */
export default async function JoinPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const checked = checkPageParam(tokenTextSchema, token, 'study link', { href: '/', label: 'Go to SKB Studio' });
  if (!checked.ok) return <ExplorerProblem title="This study link is not valid" problem={checked.problem} />;
  return <JoinStudy linkToken={token} />;
}
