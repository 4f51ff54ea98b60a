import path from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = { '@': path.resolve(import.meta.dirname) };

// Integration tests run twice, once per database; each file gets its own scratch database.
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      { resolve: { alias }, test: { name: 'unit', include: ['test/unit/**/*.test.ts?(x)'], environment: 'node' } },
      // Starts its own primary and streaming replica, so it runs once rather than once per database.
      { resolve: { alias }, test: { name: 'replica', include: ['test/replica/**/*.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 120_000 } },
      ...(['embedded', 'postgres'] as const).map((db) => ({
        resolve: { alias },
        test: {
          name: `integration-${db}`,
          include: ['test/integration/**/*.test.ts'],
          // Starts real servers on an embedded database of their own, whatever the suite's: once is enough, and
          // two development servers at a time would share one .next/dev.
          exclude: db === 'postgres' ? ['test/integration/server-stop.test.ts'] : [],
          env: { SKB_TEST_DB: db },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      })),
    ],
  },
});
