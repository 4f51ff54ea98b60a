import Link from 'next/link';
import { Fragment } from 'react';

const SECTIONS = { queries: 'Queries', campaigns: 'Campaigns', studies: 'Studies' } as const;

/**
 * The trail above a page's heading: Knowledge bases / the knowledge base / its section (when given) / the
 * pages in between.
 */
export function Breadcrumbs({ kb, section, trail = [] }: { kb: { slug: string; name: string }; section?: keyof typeof SECTIONS; trail?: { href: string; label: string }[] }) {
  const kbPage = `/kb/${encodeURIComponent(kb.slug)}`;
  const crumbs = [{ href: kbPage, label: kb.name }, ...(section ? [{ href: `${kbPage}/${section}`, label: SECTIONS[section] }] : []), ...trail];
  return (
    <nav aria-label="Breadcrumbs" className="text-sm text-slate-500">
      <Link href="/" className="hover:underline">Knowledge bases</Link>
      {crumbs.map((t) => (
        <Fragment key={t.href}> / <Link href={t.href} className="hover:underline">{t.label}</Link></Fragment>
      ))}
      {' /'}
    </nav>
  );
}
