import { forbidden, notFound, redirect } from 'next/navigation';
import { db } from '../db/client';
import { AppError } from '../errors';
import { getVisibleKb, type KbSummary } from '../kb/access';
import { can, type Permission } from './roles';
import { currentUser, type SessionUser } from './session';

type SearchParams = Record<string, string | string[] | undefined>;

/** A page's path with its query, so signing in returns to the same view (the explorer keeps its state there). */
export function pathWithQuery(path: string, searchParams: SearchParams): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(searchParams)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) query.append(key, v);
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** For server pages: sends anonymous visitors to sign in, answers 403 to a role without the permission. */
export async function requirePageUser(returnTo: string, permission?: Permission): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) redirect(`/login?callbackUrl=${encodeURIComponent(returnTo)}`);
  if (permission && !can(user.role, permission)) forbidden();
  return user;
}

/** For server pages: the value, or the 404 page when the lookup answered 404 (unknown, or not visible). */
export async function orNotFound<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (err) {
    if (err instanceof AppError && err.status === 404) notFound();
    throw err;
  }
}

/** For server pages: the knowledge base if the user may see it, else the 404 page. */
export function requirePageKb(user: SessionUser, slug: string): Promise<KbSummary> {
  return orNotFound(getVisibleKb(db(), user, slug));
}
