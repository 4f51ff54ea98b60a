// Pan-and-zoom frame times of the graph canvas on a large view, 2D canvas vs Cytoscape's WebGL renderer.
// The product's GraphCanvas (components/graph-canvas.tsx) is bundled with esbuild into a static page
// (scripts/bench/graph-frames-page.tsx) drawing a synthetic graph; Chromium opens it, waits for the first
// drawn frame, then pans and zooms every animation frame for a few seconds while requestAnimationFrame
// records the frame times.
//
// Headless Chromium here has no GPU: WebGL runs on SwiftShader, Chromium's software GL
// (--use-angle=swiftshader --enable-unsafe-swiftshader), so the WebGL figures are a CPU-bound floor.
//
//   npx tsx scripts/bench/graph-frames.mts [--nodes 3000] [--edges 10000] [--seconds 5] [--runs 3]
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
    seconds: { type: 'string', default: '5' },
    runs: { type: 'string', default: '3' },
  },
});

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

/** Pans in a circle and zooms in and out around the fitted view for `seconds`, one step per animation frame. */
async function panAndZoom(page: Page, seconds: number): Promise<Frames> {
  return page.evaluate(async (ms) => {
    const el = document.querySelector('[data-testid="graph-canvas"]') as HTMLElement & { _cyreg: { cy: import('cytoscape').Core } };
    const cy = el._cyreg.cy;
    const zoom = cy.zoom();
    const pan = { ...cy.pan() };
    const deltas: number[] = [];
    const start = performance.now();
    let last = start;
    await new Promise<void>((done) => {
      const step = (now: number) => {
        deltas.push(now - last);
        last = now;
        const t = (now - start) / 1000;
        cy.viewport({ zoom: zoom * (1.6 + Math.sin(t * 1.3)), pan: { x: pan.x + 250 * Math.cos(t * 2), y: pan.y + 150 * Math.sin(t * 2) } });
        if (now - start < ms) requestAnimationFrame(step);
        else done();
      };
      requestAnimationFrame((now) => { last = now; requestAnimationFrame(step); });
    });
    return { deltas, seconds: (performance.now() - start) / 1000 };
  }, seconds * 1000);
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const rows: Record<string, string | number>[] = [];
try {
  for (const renderer of ['canvas', 'webgl'] as const) {
    const all: number[] = [];
    let frames = 0;
    let seconds = 0;
    let firstDraw = 0;
    for (let run = 0; run < Number(values.runs); run++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      // tsx names the functions it compiles with a helper the page does not have.
      await page.addInitScript('window.__name = (f) => f');
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      await page.goto(`file://${dir}/index.html?nodes=${values.nodes}&edges=${values.edges}&renderer=${renderer}`, { waitUntil: 'commit' });
      const canvas = page.locator('[data-testid="graph-canvas"][aria-busy="false"][data-render-ms]');
      await canvas.waitFor({ timeout: 300_000 });
      if ((await canvas.getAttribute('data-renderer')) !== renderer) throw new Error(`asked for ${renderer}, drew with ${await canvas.getAttribute('data-renderer')}`);
      firstDraw += Number(await canvas.getAttribute('data-render-ms'));
      const elements = Number(await canvas.getAttribute('data-elements'));
      if (elements !== Number(values.nodes) + Number(values.edges)) throw new Error(`drew ${elements} elements`);
      const measured = await panAndZoom(page, Number(values.seconds));
      if (errors.length > 0) throw new Error(`${renderer}: ${errors.join('; ')}`);
      all.push(...measured.deltas);
      frames += measured.deltas.length;
      seconds += measured.seconds;
      await page.close();
    }
    const sorted = [...all].sort((a, b) => a - b);
    rows.push({
      renderer, elements: Number(values.nodes) + Number(values.edges), frames,
      'p50 ms': quantile(sorted, 0.5).toFixed(1), 'p95 ms': quantile(sorted, 0.95).toFixed(1),
      fps: (frames / seconds).toFixed(1), 'first draw ms': Math.round(firstDraw / Number(values.runs)),
    });
  }
} finally {
  await browser.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
console.log(`${values.nodes} nodes, ${values.edges} edges; ${values.runs} runs of ${values.seconds} s pan and zoom; ${os.cpus().length} × ${os.cpus()[0]?.model}; ${new Date().toISOString()}`);
console.log(`Load average: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.table(rows);
