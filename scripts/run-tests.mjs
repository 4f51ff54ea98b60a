#!/usr/bin/env node
// Runs every test: type check, unit tests, integration tests on the embedded database and on
// PostgreSQL, a production build, and the Playwright end-to-end tests in Chromium.
// Nothing is skipped for want of a browser or a database: a missing one fails the run, saying how to get it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { summarize } from './test-summary.mjs';

const CHROMIUM = process.env.SKB_CHROMIUM ?? '/usr/bin/chromium';
const PG_URL = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

function fail(message) {
  console.error(`\nTests cannot run: ${message}`);
  process.exit(1);
}

async function reachable(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname || '127.0.0.1', port: Number(port || 5432) });
    socket.setTimeout(3000, () => { socket.destroy(); resolve(false); });
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

if (!fs.existsSync('node_modules')) fail('dependencies are not installed; run `npm ci` first.');
if (!fs.existsSync(CHROMIUM)) fail(`no Chromium at ${CHROMIUM}; install it with \`apt-get install -y chromium\` (or set SKB_CHROMIUM).`);
if (!(await reachable(PG_URL))) fail(`no PostgreSQL server at ${new URL(PG_URL).host} for the PostgreSQL suite; start one or set TEST_DATABASE_URL.`);

const env = { ...process.env, TEST_DATABASE_URL: PG_URL, NEXT_TELEMETRY_DISABLED: '1' };
const steps = [
  ['Type check', ['npx', 'tsc', '--noEmit']],
  ['Unit and integration tests (embedded database and PostgreSQL)', ['npx', 'vitest', 'run']],
  ['Production build', ['npx', 'next', 'build']],
  ['End-to-end tests (Chromium)', ['npx', 'playwright', 'test']],
];

const results = [];
for (const [name, [cmd, ...args]] of steps) {
  console.log(`\n=== ${name}: ${[cmd, ...args].join(' ')}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env });
  const ok = r.status === 0;
  results.push({ name, ok, seconds: Math.round((Date.now() - started) / 1000) });
  if (!ok) break;
}

console.log('\n=== Summary');
const { lines, failed } = summarize(steps.map(([name]) => name), results);
for (const line of lines) console.log(line);
process.exit(failed ? 1 : 0);
