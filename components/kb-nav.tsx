'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';

const SECTIONS = [
  { href: '', label: 'Overview' },
  { href: '/search', label: 'Search' },
  { href: '/graph', label: 'Graph' },
  { href: '/metapaths', label: 'Metapaths' },
  { href: '/paths', label: 'Paths' },
  { href: '/queries', label: 'Queries' },
  { href: '/campaigns', label: 'Campaigns' },
  { href: '/studies', label: 'Studies' },
] as const;

/** Sections for those who manage queries (curators, admins). */
const CURATOR_SECTIONS = [{ href: '/synthesize', label: 'Synthesize' }] as const;

/** The explorer's sections for one knowledge base; the current one is marked for screen readers too. */
export function KbNav({ slug, canManage = false }: { slug: string; canManage?: boolean }) {
  const pathname = usePathname();
  const base = `/kb/${encodeURIComponent(slug)}`;
  return (
    <nav aria-label="Explorer" className="mb-4 flex flex-wrap gap-1 border-b border-slate-200 text-sm">
      {[...SECTIONS, ...(canManage ? CURATOR_SECTIONS : [])].map((s) => {
        const href = base + s.href;
        const current = s.href === '' ? pathname === base : pathname.startsWith(href);
        return (
          <Link key={s.label} href={href} aria-current={current ? 'page' : undefined}
            className={`-mb-px border-b-2 px-3 py-2 ${current ? 'border-blue-600 font-medium text-slate-900' : 'border-transparent text-slate-600 hover:text-slate-900'}`}>
            {s.label}
          </Link>
        );
      })}
    </nav>
  );
}
