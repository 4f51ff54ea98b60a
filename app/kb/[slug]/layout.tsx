import type { ReactNode } from 'react';
import { KbNav } from '@/components/kb-nav';

/** Every explorer page of a knowledge base; each page checks access itself (a layout cannot 404 its page). */
export default async function KbLayout({ children, params }: { children: ReactNode; params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  return (
    <>
      <KbNav slug={slug} />
      {children}
    </>
  );
}
