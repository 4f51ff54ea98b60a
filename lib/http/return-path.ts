// Any origin works here: a path is ours exactly when resolving it keeps this origin.
const PROBE_ORIGIN = 'http://return-path.invalid';

// Browsers drop tabs and newlines from URLs and read `\` as `/`, so `/\t/evil` or `/\evil` would leave the site.
const UNSAFE_CHARACTER = /[\u0000-\u0020\u007f-\u00a0\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff\\]/;

/**
 * Only same-site paths are followed after sign-in, so a crafted link cannot send people elsewhere:
 * anything else, including a path with a control character, whitespace or backslash, becomes `/`.
 */
export function safeReturnPath(value: string | string[] | undefined): string {
  const path = Array.isArray(value) ? value[0] : value;
  if (!path || !path.startsWith('/') || UNSAFE_CHARACTER.test(path)) return '/';
  try {
    return new URL(path, PROBE_ORIGIN).origin === PROBE_ORIGIN ? path : '/';
  } catch {
    return '/';
  }
}

/** next-auth's redirect rule: an address on the app's own origin (absolute or a path) under the same check, else the home page. */
export function safeRedirectUrl(url: string, baseUrl: string): string {
  const base = new URL(baseUrl);
  let path = url;
  if (!url.startsWith('/')) {
    try {
      const target = new URL(url);
      if (target.origin !== base.origin) return baseUrl;
      path = target.pathname + target.search + target.hash;
    } catch {
      return baseUrl;
    }
  }
  return `${base.origin}${safeReturnPath(path)}`;
}
