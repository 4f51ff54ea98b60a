import { NextResponse, type NextRequest } from 'next/server';

/**
 * The Content-Security-Policy of every page, with a fresh nonce per request. Next.js reads the nonce from the
 * request's policy header while rendering and puts it on its own bootstrap and page scripts; every page is
 * rendered per request (the root layout reads the session), so all of them get it. Styles allow inline ones:
 * React's `style` attributes, Cytoscape and the charts set them, and a nonce cannot cover attributes.
 */
export function proxy(request: NextRequest): NextResponse {
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
  const https = request.nextUrl.protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
  const policy = contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === 'development', https });

  const headers = new Headers(request.headers);
  headers.set('content-security-policy', policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('content-security-policy', policy);
  // Only meaningful over HTTPS (browsers ignore it on plain HTTP); a TLS proxy in front may set it as well.
  if (https) response.headers.set('strict-transport-security', 'max-age=31536000; includeSubDomains');
  return response;
}

function contentSecurityPolicy(nonce: string, { dev, https }: { dev: boolean; https: boolean }): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic': scripts the nonced ones load (Next's chunks) run too; hosts listed here are then ignored.
    // React's development build evaluates code for its error overlays; production never does.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? ' ws:' : ''}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

export const config = {
  matcher: [
    {
      // Pages only: API answers carry a fixed policy (next.config.js), static files need none.
      source: '/((?!api/|_next/static|_next/image|favicon.ico).*)',
      missing: [
        { type: 'header', key: 'next-router-prefetch' },
        { type: 'header', key: 'purpose', value: 'prefetch' },
      ],
    },
  ],
};
