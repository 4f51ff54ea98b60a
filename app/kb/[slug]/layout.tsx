import type { ReactNode } from 'react';
import { KbNav } from '@/components/kb-nav';
import { can } from '@/lib/auth/roles';
import { currentUser } from '@/lib/auth/session';

/** Every explorer page of a knowledge base; each page checks access itself (a layout cannot 404 its page). */
export default async function KbLayout({ children, params }: { children: ReactNode; params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await currentUser();
  return (
    <>
      <KbNav slug={slug} canManage={!!user && can(user.role, 'queries:manage')} />
      {children}
    </>
  );
}
