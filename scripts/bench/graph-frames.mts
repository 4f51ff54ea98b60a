// Pan-and-zoom frame times of the graph canvas on a large view: the 2D canvas drawing everything, leaving edges
// out, or moving a picture of the view while it moves; and Cytoscape's WebGL renderer.
// The product's GraphCanvas (components/graph-canvas.tsx) is bundled with esbuild into a static page
// (scripts/bench/graph-frames-page.tsx) drawing a synthetic graph; Chromium opens it, waits for the first
// drawn frame, then pans and zooms for a few seconds while requestAnimationFrame records the frame times: with
// the mouse (wheel zoom and background drags, after a warm-up round), which is what the `moving` settings
// apply to, and from script (a new viewport every frame, everything redrawn whatever the settings).
//
// Headless Chromium here has no GPU: WebGL runs on SwiftShader, Chromium's software GL
// (--use-angle=swiftshader --enable-unsafe-swiftshader), so the WebGL figures are a CPU-bound floor.
//
//   npx tsx scripts/bench/graph-frames.mts [--nodes 3000] [--edges 10000] [--seconds 10] [--runs 2] [--layout grouped|grid]
//     [--configs canvas:full,canvas:no-edges,canvas:texture,webgl:full]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from '@playwright/test';
import { build } from 'esbuild';

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '3000' },
    edges: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '10' },
    runs: { type: 'string', default: '2' },
    layout: { type: 'string', default: 'grouped' },
    configs: { type: 'string', default: 'canvas:full,canvas:no-edges,canvas:texture,webgl:full' },
  },
});

const loadAtStart = os.loadavg().map((l) => l.toFixed(2)).join(' ');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-graph-frames-'));
await build({
  entryPoints: [path.resolve('scripts/bench/graph-frames-page.tsx')],
  bundle: true, minify: true, format: 'iife', outfile: path.join(dir, 'page.js'),
  jsx: 'automatic', define: { 'process.env.NODE_ENV': '"production"' }, logLevel: 'warning',
});
fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html><html><head><meta charset="utf-8"><style>
  body { margin: 0 } .bench-canvas { width: 1200px; height: 800px }
</style></head><body><div id="root"></div><script src="page.js"></script></body></html>`);

const browser = await chromium.launch({
  executablePath: process.env.SKB_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});

interface Frames { deltas: number[]; seconds: number }

/** Starts recording animation-frame times in the page; the returned function stops and collects them. */
async function recordFrames(page: Page): Promise<() => Promise<Frames>> {
  await page.evaluate(() => {
    const w = window as unknown as { frames_: number[]; stop_: boolean };
    w.frames_ = [];
    w.stop_ = false;
    // performance.now(), not the callback's frame timestamp, which Chromium repeats after a long frame.
    const tick = () => { w.frames_.push(performance.now()); if (!w.stop_) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  });
  return () => page.evaluate(() => {
    const w = window as unknown as { frames_: number[]; stop_: boolean };
    w.stop_ = true;
    const t = w.frames_;
    return { deltas: t.slice(1).map((x, i) => x - t[i]!), seconds: (t[t.length - 1]! - t[0]!) / 1000 };
  });
}

/**
 * Pans and zooms as a person does for `seconds`: wheel zooms in and out around the middle, then drags in a
 * circle. Nodes are made ungrabbable first, so every drag pans the view instead of moving a node.
 */
async function panAndZoom(page: Page, seconds: number): Promise<Frames> {
  const canvas = page.locator('[data-testid="graph-canvas"]');
  await canvas.evaluate((el) => (el as unknown as { _cyreg: { cy: import('cytoscape').Core } })._cyreg.cy.autoungrabify(true));
  const box = (await canvas.boundingBox())!;
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  const stop = await recordFrames(page);
  const end = Date.now() + seconds * 1000;
  for (let round = 0; Date.now() < end; round++) {
    await page.mouse.move(x, y);
    for (let i = 0; i < 6; i++) await page.mouse.wheel(0, round % 2 === 0 ? -120 : 120);
    await page.mouse.down();
    for (let step = 1; step <= 12; step++) {
      const a = (step / 12) * 2 * Math.PI;
      await page.mouse.move(x + 120 * Math.sin(a), y + 80 * (1 - Math.cos(a)));
    }
    await page.mouse.up();
  }
  return stop();
}

/** Moves the viewport from script every frame: Cytoscape redraws everything, edges included, each time. */
async function scriptedViewport(page: Page, seconds: number): Promise<Frames> {
  const stop = await recordFrames(page);
  await page.evaluate(async (ms) => {
    const el = document.querySelector('[data-testid="graph-canvas"]') as HTMLElement & { _cyreg: { cy: import('cytoscape').Core } };
    const cy = el._cyreg.cy;
    const zoom = cy.zoom();
    const pan = { ...cy.pan() };
    const start = performance.now();
    await new Promise<void>((done) => {
      const step = (now: number) => {
        const t = (now - start) / 1000;
        cy.viewport({ zoom: zoom * (1.6 + Math.sin(t * 1.3)), pan: { x: pan.x + 250 * Math.cos(t * 2), y: pan.y + 150 * Math.sin(t * 2) } });
        if (now - start < ms) requestAnimationFrame(step);
        else done();
      };
      requestAnimationFrame(step);
    });
  }, seconds * 1000);
  return stop();
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const rows: Record<string, string | number>[] = [];
const glWarnings = new Map<string, number>();
const summary = (renderer: string, moving: string, how: string, frames: Frames[], firstDraw: number) => {
  const sorted = frames.flatMap((f) => f.deltas).sort((a, b) => a - b);
  const count = sorted.length;
  const seconds = frames.reduce((s, f) => s + f.seconds, 0);
  return {
    renderer, moving, how, frames: count, 'p50 ms': quantile(sorted, 0.5).toFixed(1), 'p95 ms': quantile(sorted, 0.95).toFixed(1),
    fps: (count / seconds).toFixed(1), 'first draw ms': Math.round(firstDraw),
  };
};
try {
  for (const config of values.configs!.split(',')) {
    const [renderer, moving] = config.split(':') as ['canvas' | 'webgl', string];
    const byMouse: Frames[] = [];
    const byScript: Frames[] = [];
    let firstDraw = 0;
    for (let run = 0; run < Number(values.runs); run++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      // tsx names the functions it compiles with a helper the page does not have.
      await page.addInitScript('window.__name = (f) => f');
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        // Chromium reports WebGL errors as warnings; counted and printed, the rest of the run still measured.
        if (/GL_INVALID|WebGL/.test(m.text())) glWarnings.set(m.text().replace(/0x[0-9a-f]+/g, '…'), (glWarnings.get(m.text().replace(/0x[0-9a-f]+/g, '…')) ?? 0) + 1);
        else if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
      });
      await page.goto(`file://${dir}/index.html?nodes=${values.nodes}&edges=${values.edges}&renderer=${renderer}&moving=${moving}&layout=${values.layout}`, { waitUntil: 'commit' });
      const canvas = page.locator('[data-testid="graph-canvas"][aria-busy="false"][data-render-ms]');
      await canvas.waitFor({ timeout: 300_000 });
      if ((await canvas.getAttribute('data-renderer')) !== renderer) throw new Error(`asked for ${renderer}, drew with ${await canvas.getAttribute('data-renderer')}`);
      if ((await canvas.getAttribute('data-moving')) !== moving) throw new Error(`asked for ${moving} while moving, got ${await canvas.getAttribute('data-moving')}`);
      firstDraw += Number(await canvas.getAttribute('data-render-ms')) / Number(values.runs);
      const elements = Number(await canvas.getAttribute('data-elements'));
      if (elements !== Number(values.nodes) + Number(values.edges)) throw new Error(`drew ${elements} elements`);
      // A first round fills Cytoscape's texture caches (and WebGL's atlases); the second is measured.
      await panAndZoom(page, Math.min(3, Number(values.seconds)));
      byMouse.push(await panAndZoom(page, Number(values.seconds)));
      byScript.push(await scriptedViewport(page, Number(values.seconds)));
      if (errors.length > 0) throw new Error(`${renderer}: ${[...new Set(errors)].join('; ')}`);
      await page.close();
    }
    rows.push(summary(renderer, moving, 'mouse: wheel + drag', byMouse, firstDraw), summary(renderer, moving, 'script: viewport each frame', byScript, firstDraw));
    // Each configuration as it is done: a whole run takes many minutes on a busy machine.
    console.log(JSON.stringify({ ...rows.at(-2), load: os.loadavg()[0]!.toFixed(2) }));
    console.log(JSON.stringify(rows.at(-1)));
  }
} finally {
  await browser.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
console.log(`${values.nodes} nodes, ${values.edges} edges, ${values.layout} layout; ${values.runs} runs of ${values.seconds} s pan and zoom; ${os.cpus().length} × ${os.cpus()[0]?.model}; ${new Date().toISOString()}`);
console.log(`Load average at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} (at the start: ${loadAtStart})`);
console.table(rows);
for (const [text, count] of glWarnings) console.log(`WebGL console warning ×${count}: ${text}`);
