import type { Metadata } from 'next';
import { participantApi } from '@/components/studies/rate/api';
import { RatingScreen } from '@/components/studies/rate/rating-screen';

export const metadata: Metadata = { title: 'Rating study', robots: { index: false, follow: false } };

/** A participant's own link: the token is the credential, so there is no sign-in here. */
export default async function RatePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return <RatingScreen api={participantApi(token)} access="link" />;
}
