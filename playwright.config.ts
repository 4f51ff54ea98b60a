import { defineConfig } from '@playwright/test';
import { BASE_URL, E2E_PORT, TEST_PASSWORD } from './e2e/fixtures';
import { OIDC_APP_ENV, OIDC_ISSUER } from './e2e/oidc-setup';

const FAKE_LLM_PORT = 3299;
const FAKE_LLM_URL = `http://127.0.0.1:${FAKE_LLM_PORT}/v1`;

/**
 * End-to-end tests against the production build on a fresh embedded (PGlite) database per run.
 * Playwright's own browser download does not work here: Debian's Chromium is used instead.
 */
export default defineConfig({
  testDir: 'e2e',
  // One worker (2-core machine, one embedded database); every test signs in on its own and
  // creates its own users, so the tests do not depend on each other or on their order.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: 'list',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: BASE_URL,
    browserName: 'chromium',
    // Dates are written in the reader's locale and time zone: the tests read them as a British reader in UTC.
    locale: 'en-GB',
    timezoneId: 'UTC',
    launchOptions: {
      executablePath: process.env.SKB_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    trace: 'off',
  },
  webServer: [{
    // A stand-in chat-completions endpoint: the app runs with an LLM configured, as it would in production.
    command: `node --import tsx e2e/fake-llm-server.ts ${FAKE_LLM_PORT}`,
    url: `${FAKE_LLM_URL}/models`,
    timeout: 30_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
  }, {
    // The organisation's OpenID Connect provider (a real one, oidc-provider), which the app offers sign-in with.
    command: `node --import tsx e2e/oidc-provider-server.ts ${BASE_URL}`,
    url: `${OIDC_ISSUER}/.well-known/openid-configuration`,
    timeout: 30_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
  }, {
    command: `rm -rf .data/e2e && node bin/skb.mjs serve --port ${E2E_PORT}`,
    url: `${BASE_URL}/login`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    env: {
      SKB_DATA_DIR: '.data/e2e',
      SKB_DEMO_PASSWORD: TEST_PASSWORD,
      NEXT_TELEMETRY_DISABLED: '1',
      // Empty counts as unset for the app (`if (!process.env.DATABASE_URL)`): always the embedded database.
      DATABASE_URL: '',
      // Let the embedded database pick a free port, and make next-auth use the address the tests use.
      SKB_DB_PORT: '',
      NEXTAUTH_URL: BASE_URL,
      SKB_LLM_BASE_URL: FAKE_LLM_URL,
      SKB_LLM_MODEL: 'fake-model',
      ...OIDC_APP_ENV,
    },
  }],
});
