import type { Metadata } from 'next';
import { checkPageParam } from '@/lib/http/page-query';
import { tokenTextSchema } from '@/lib/studies/tokens';
import { ExplorerProblem } from '@/components/page-problem';
import { participantApi } from '@/components/studies/rate/api';
import { RatingScreen } from '@/components/studies/rate/rating-screen';

export const metadata: Metadata = { title: 'Rating study', robots: { index: false, follow: false } };

/** A participant's own link: the token is the credential, so there is no sign-in here; a mistyped one is said at once. */
export default async function RatePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const checked = checkPageParam(tokenTextSchema, token, 'participation link', { href: '/', label: 'Go to SKB Studio' });
  if (!checked.ok) return <ExplorerProblem title="This link is not valid" problem={checked.problem} />;
  return <RatingScreen api={participantApi(token)} access="link" />;
}
