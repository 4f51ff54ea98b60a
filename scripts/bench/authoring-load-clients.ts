// The two ways the authoring load reaches the annotator's API: the production app over HTTP (signed in like a
// browser, with next-auth's cookies), or the library functions the route handlers call (for the test).
import type pg from 'pg';
import { claimNext } from '../../lib/authoring/assignments';
import { judge, saveDraft, type Evidence, type JudgmentLabel } from '../../lib/authoring/drafts';
import { answerOf, request, type Answer } from './app-server';

export interface DraftBody {
  text: string;
  textSpans?: { field: string; start: number; end: number; quote: string }[];
  version: number;
}

export interface JudgmentBody {
  entityId: number;
  label: JudgmentLabel;
  evidence?: Evidence[];
  version: number;
}

/** One annotator's editor: claim a seed, autosave the draft, judge entities. */
export interface AuthoringClient {
  claim(campaignId: number): Promise<Answer>;
  saveDraft(assignmentId: number, body: DraftBody): Promise<Answer>;
  judge(assignmentId: number, body: JudgmentBody): Promise<Answer>;
}

/** Keeps the cookies a server sets, by name, and sends them back. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';', 1)[0]!;
      const eq = pair.indexOf('=');
      if (eq > 0) this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/**
 * Signs in through next-auth's credentials endpoint (CSRF token first, as the sign-in form does) and returns
 * the Cookie header that carries the session. Throws when the sign-in fails.
 */
export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const jar = new CookieJar();
  const csrfRes = await fetch(`${baseUrl}/api/auth/csrf`);
  jar.take(csrfRes);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const callback = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
    body: new URLSearchParams({ csrfToken, email, password, json: 'true' }),
  });
  jar.take(callback);
  await callback.body?.cancel();
  const session = await fetch(`${baseUrl}/api/auth/session`, { headers: { cookie: jar.header() } });
  const signedIn = ((await session.json()) as { user?: { email?: string } }).user?.email;
  if (signedIn !== email) throw new Error(`Sign-in of ${email} failed (credentials callback answered ${callback.status})`);
  return jar.header();
}

/** An annotator's editor over HTTP, signed in as `email`. */
export async function httpClient(baseUrl: string, email: string, password: string): Promise<AuthoringClient> {
  const cookie = await signIn(baseUrl, email, password);
  const call = (method: string, path: string, body: unknown): Promise<Answer> => request(`${baseUrl}${path}`, {
    method,
    // A browser sends its Origin with every mutation; the API checks it.
    headers: { 'content-type': 'application/json', cookie, origin: baseUrl },
    body: JSON.stringify(body),
  });
  return {
    claim: (campaignId) => call('POST', `/api/campaigns/${campaignId}/claim`, {}),
    saveDraft: (assignmentId, body) => call('PUT', `/api/assignments/${assignmentId}/draft`, body),
    judge: (assignmentId, body) => call('POST', `/api/assignments/${assignmentId}/judgments`, body),
  };
}

/** The library calls behind the routes, with errors answered as the routes answer them. */
export function libraryClient(pool: pg.Pool, userId: number): AuthoringClient {
  return {
    claim: (campaignId) => answerOf(async () => ({ assignment: await claimNext(pool, campaignId, userId) })),
    saveDraft: (assignmentId, body) => answerOf(() => saveDraft(pool, assignmentId, userId, body)),
    judge: (assignmentId, body) => answerOf(() => judge(pool, assignmentId, userId, body)),
  };
}
