// Browser benchmark of the graph view: the app served on the explorer benchmark's knowledge base, Chromium
// opening /kb/<slug>/graph for random and hub entities (2 hops, the 500-element budget), timed from
// navigation to the first drawn frame of the full view.
//
//   npx next build && npx tsx scripts/bench/graph-render.mts [--server URL] [--database NAME] [--slug SLUG]
//     [--shape mag|amazon] [--scale F] [--runs 30]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import pg from 'pg';
import { benchDataArgs, benchDataOptions, ensureBenchDatabase } from './explorer-data';
import { table, timingOf } from './measure';

const { values } = parseArgs({
  options: {
    ...benchDataArgs,
    runs: { type: 'string', default: '30' },
    port: { type: 'string', default: '3299' },
  },
});
const PASSWORD = 'bench-Passw0rd!';
const base = `http://127.0.0.1:${values.port}`;

const { url, kbId, slug } = await ensureBenchDatabase(benchDataOptions(values));
const db = new pg.Pool({ connectionString: url, max: 1 });
const pickSql = `SELECT id FROM entity WHERE kb_id = $1`;
const randoms = (await db.query<{ id: number }>(`${pickSql} ORDER BY hashint4(id + 17) LIMIT $2`, [kbId, Number(values.runs)])).rows.map((r) => r.id);
const hubs = (await db.query<{ id: number }>(`${pickSql} ORDER BY degree DESC LIMIT 10`, [kbId])).rows.map((r) => r.id);
await db.end();

// The demo accounts give a signed-in user; the demo knowledge bases sit beside the benchmark's.
// Its data folder (secrets, demo credentials) is a fresh temporary one.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-graph-render-'));
const app = spawn(process.execPath, ['bin/skb.mjs', 'serve', '--port', values.port!, '--demo'], {
  env: { ...process.env, DATABASE_URL: url, SKB_DEMO_PASSWORD: PASSWORD, SKB_DATA_DIR: dataDir },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let exited: number | null | undefined;
app.on('exit', (code) => (exited = code));
// Each app process reads the search index ahead when it starts (minutes and a core at Amazon size); the pages
// are timed once every process that said it listens has said it is done.
let listening = 0;
let readAhead = 0;
app.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
  listening += chunk.match(/^Listening on /gm)?.length ?? 0;
  readAhead += chunk.match(/^Search indexes read ahead by process /gm)?.length ?? 0;
});
try {
  const started = performance.now();
  for (let i = 0; ; i++) {
    if (exited !== undefined) throw new Error(`the app exited (code ${exited}) before it answered`);
    if (i > 240) throw new Error('the app did not start within 2 minutes');
    if (await fetch(`${base}/login`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  for (let quiet = 0; quiet < 4; quiet = listening > 0 && readAhead >= listening ? quiet + 1 : 0) {
    if (exited !== undefined) throw new Error(`the app exited (code ${exited}) while reading ahead`);
    if (performance.now() - started > 20 * 60_000) throw new Error('the app did not finish reading ahead within 20 minutes');
    await new Promise((r) => setTimeout(r, 500));
  }
  console.log(`${listening} app processes listening, search indexes read ahead after ${((performance.now() - started) / 1000).toFixed(0)} s`);
  const browser = await chromium.launch({
    executablePath: process.env.SKB_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1400, height: 900 } });
  const { csrfToken } = (await (await context.request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  await context.request.post('/api/auth/callback/credentials', { form: { csrfToken, email: 'annotator@demo.local', password: PASSWORD, json: 'true' } });
  const page = await context.newPage();

  const elements: number[] = [];
  const drawMs: number[] = [];
  // Where a page load's time goes: the server's HTML (first byte, last byte), the scripts (DOM interactive),
  // graph data requested by the page after it loaded, and the canvas's layout and first frame.
  const phases = { 'first byte': [] as number[], 'HTML received': [] as number[], 'DOM interactive': [] as number[], 'canvas drawn': [] as number[] };
  let dataRequests = 0;
  page.on('request', (r) => { if (/\/api\/kbs\/[^/]+\/graph\?/.test(r.url())) dataRequests++; });
  const open = async (id: number): Promise<number> => {
    // The harness's clock runs from the navigation's request to the drawn view seen in the page, which it
    // watches on every animation frame (a locator's wait polls at widening intervals, up to 500 ms); reading
    // the view's attributes and timings afterwards is not timed. It does not wait for the load event.
    const started = performance.now();
    await page.goto(`/kb/${slug}/graph?entity=${id}&hops=2`, { waitUntil: 'commit' });
    await page.waitForFunction(() => document.querySelector('[data-testid="graph-canvas"][data-render-ms][aria-busy="false"]:not([data-elements="0"])'),
      null, { polling: 'raf', timeout: 30_000 });
    const harnessMs = performance.now() - started;
    const canvas = page.getByTestId('graph-canvas');
    elements.push(Number(await canvas.getAttribute('data-elements')));
    drawMs.push(Number(await canvas.getAttribute('data-render-ms')));
    const t = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const drawn = performance.getEntriesByName('skb-graph-render').at(-1);
      return { firstByte: nav.responseStart, html: nav.responseEnd, interactive: nav.domInteractive, drawn: drawn ? drawn.startTime + drawn.duration : NaN };
    });
    phases['first byte'].push(t.firstByte);
    phases['HTML received'].push(t.html);
    phases['DOM interactive'].push(t.interactive);
    phases['canvas drawn'].push(t.drawn);
    return harnessMs;
  };
  const rows = [];
  for (const [group, ids] of [['random', randoms], ['hubs', hubs]] as const) {
    // The group's first load warms up and is not counted.
    const from = phases['canvas drawn'].length + 1;
    const harness: number[] = [];
    for (const id of [ids[0]!, ...ids]) harness.push(await open(id));
    rows.push(timingOf(`graph page, 2 hops: navigation to drawn view, harness's clock (${group})`, harness.slice(1)));
    // Navigation to the first drawn frame by the page's own clock, without Playwright's round trips.
    rows.push(timingOf(`graph page, 2 hops: navigation to first drawn frame, page's clock (${group})`, phases['canvas drawn'].slice(from)));
  }
  const sorted = [...drawMs].sort((a, b) => a - b);
  console.log(`Elements drawn: ${Math.min(...elements)}-${Math.max(...elements)}; canvas layout + first frame: p50 ${sorted[Math.floor(sorted.length / 2)]} ms, max ${sorted[sorted.length - 1]} ms`);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`Page load, median ms from navigation: ${Object.entries(phases).map(([k, v]) => `${k} ${median(v).toFixed(0)}`).join(', ')}`);
  console.log(`Graph data requests made by the pages after loading: ${dataRequests} for ${elements.length} pages`);
  console.log(`Load average: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(table(rows.map((r) => ({ ...r, budget: 1000 }))));
  await browser.close();
} finally {
  app.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
