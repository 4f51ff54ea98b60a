import Link from 'next/link';
import { Fragment } from 'react';

/** The trail above a query-set page's heading: knowledge bases / the knowledge base / Queries / ... */
export function Breadcrumbs({ trail }: { trail: { href: string; label: string }[] }) {
  return (
    <nav aria-label="Breadcrumbs" className="text-sm text-slate-500">
      <Link href="/" className="hover:underline">Knowledge bases</Link>
      {trail.map((t) => (
        <Fragment key={t.href}> / <Link href={t.href} className="hover:underline">{t.label}</Link></Fragment>
      ))}
      {' /'}
    </nav>
  );
}
