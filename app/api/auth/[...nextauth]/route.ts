import NextAuth from 'next-auth';
import { z } from 'zod';
import { authOptions } from '@/lib/auth/options';
import { checkLoginThrottle, throttleMessage } from '@/lib/auth/login-throttle';
import { emailSchema, MAX_EMAIL_LENGTH } from '@/lib/auth/users';
import { db } from '@/lib/db/client';
import { errorResponse, json, parseWith } from '@/lib/http/api';
import { clientAddress } from '@/lib/http/client-address';

const handler = NextAuth(authOptions);

type Context = { params: Promise<{ nextauth: string[] }> };

// Generous for passwords set before the length cap; the cap only keeps absurd bodies away from scrypt.
const signInFields = z.object({
  email: z.string().max(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`),
  password: z.string().max(4096, 'must be at most 4096 characters'),
});

/**
 * The sign-in callback, checked before next-auth runs: oversized fields are a 400 naming them, and a throttled
 * account and address a 429 with Retry-After (next-auth itself answers every refusal its own way). The body
 * carries a `url` with the message as `error`, which is where next-auth's client looks for it.
 */
async function POST(req: Request, context: Context): Promise<Response> {
  const { nextauth } = await context.params;
  if (nextauth.join('/') !== 'callback/credentials') return handler(req, context);
  const form = await req.clone().formData().catch(() => null);
  if (form) {
    try {
      const { email } = parseWith(signInFields, { email: form.get('email') ?? '', password: form.get('password') ?? '' }, 'body');
      const parsed = emailSchema.safeParse(email);
      if (parsed.success) {
        const verdict = await checkLoginThrottle(db(), parsed.data, clientAddress(req.headers));
        if (!verdict.allowed) {
          const message = throttleMessage(verdict);
          const url = new URL(`/login?error=${encodeURIComponent(message)}`, req.url).toString();
          const res = json({ error: message, url }, 429);
          res.headers.set('retry-after', String(verdict.retryAfterSeconds));
          return res;
        }
      }
    } catch (err) {
      return errorResponse(err);
    }
  }
  return handler(req, context);
}

export { handler as GET, POST };
