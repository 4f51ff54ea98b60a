'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { listOfPath } from '@/lib/http/list-of-path';

/** The 404 page's way back to the list the missing record would be in (the page gets no params, the path tells). */
export function NotFoundWayBack() {
  const back = listOfPath(usePathname());
  return back && (
    <p className="mt-4"><Link href={back.href} className="font-medium text-blue-700 hover:underline" data-testid="not-found-back">{back.label}</Link></p>
  );
}
