import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Answers 400 to a request whose path is not valid percent-encoded UTF-8 (`%ED%A0%80`, an encoded lone
 * surrogate; `%E0%A4%A`; `%uD800`) and says whether it did. Next.js fails on such a path while it matches
 * routes, before any route code runs, and answers a bare 500; the app server asks here first.
 */
export function refuseMalformedPath(req: IncomingMessage, res: ServerResponse): boolean {
  const path = (req.url ?? '/').split('?')[0]!;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    res.writeHead(400, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ error: 'Invalid path: it is not valid percent-encoded UTF-8' }));
    return true;
  }
}
