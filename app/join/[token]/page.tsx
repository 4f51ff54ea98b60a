import type { Metadata } from 'next';
import { JoinStudy } from '@/components/studies/rate/join-study';

export const metadata: Metadata = { title: 'Join a study', robots: { index: false, follow: false } };

/** A study's link: anyone with it takes part without an account (no sign-in here). */
export default async function JoinPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return <JoinStudy linkToken={token} />;
}
