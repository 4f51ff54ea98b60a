/** Where the app is when neither its public address nor a request says: `skb serve`'s default. */
const LOCAL_ORIGIN = 'http://localhost:3000';

/**
 * The absolute address of a release's page, which its Croissant file and citation give as the dataset's URL:
 * on the app's public address (`NEXTAUTH_URL`) when set, else on the address the request came to.
 */
export function releasePageUrl(release: { slug: string; set: string; number: number }, requestUrl?: string): string {
  const origin = process.env.NEXTAUTH_URL?.replace(/\/+$/, '') || (requestUrl ? new URL(requestUrl).origin : LOCAL_ORIGIN);
  return `${origin}/kb/${encodeURIComponent(release.slug)}/queries/${encodeURIComponent(release.set)}/releases/${release.number}`;
}
