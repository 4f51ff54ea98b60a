'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { config } from 'zod/v4/core';

// zod compiles object parsers with `new Function` after probing whether it may; the Content-Security-Policy
// forbids eval, so the probe would be reported as a violation on every page that validates input. Interpreted
// parsing is fast enough for forms. Only the configuration is imported here (zod's shared core settings): the
// whole of zod in the root layout was a tenth of a megabyte of script on every page, most of which validate
// nothing in the browser.
config({ jitless: true });

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: 1 } } }));
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
