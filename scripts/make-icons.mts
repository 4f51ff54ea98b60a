// Draws the app's icons from app/icon.svg (the one source): the PNGs of the web manifest and of iOS's home screen,
// and public/favicon.ico for the clients that ask for /favicon.ico whatever the page says. Chromium renders them.
//   npx tsx scripts/make-icons.mts
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';

const root = path.resolve(import.meta.dirname, '..');
const svg = fs.readFileSync(path.join(root, 'app', 'icon.svg'), 'utf8');

/** PNG files, by path from the project root and size in pixels. */
const PNGS: [string, number][] = [
  ['app/apple-icon.png', 180],
  ['public/icon-192.png', 192],
  ['public/icon-512.png', 512],
];
/** The sizes packed into favicon.ico. */
const ICO_SIZES = [16, 32, 48];

/** An ICO file holding PNG images (Windows Vista's format, read by every browser). */
function ico(images: { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // an icon
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png }, i) => {
    const entry = 6 + 16 * i;
    header.writeUInt8(size % 256, entry); // 256 is written as 0
    header.writeUInt8(size % 256, entry + 1);
    header.writeUInt16LE(1, entry + 4); // colour planes
    header.writeUInt16LE(32, entry + 6); // bits per pixel
    header.writeUInt32LE(png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map((i) => i.png)]);
}

const browser = await chromium.launch({ executablePath: process.env.SKB_CHROMIUM ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] });
try {
  const page = await browser.newPage();
  const render = async (size: number): Promise<Buffer> => {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(`<style>*{margin:0}</style><img width="${size}" height="${size}" src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}">`);
    await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    return page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
  };
  for (const [file, size] of PNGS) {
    fs.writeFileSync(path.join(root, file), await render(size));
    console.log(`${file} (${size} px)`);
  }
  const images = [];
  for (const size of ICO_SIZES) images.push({ size, png: await render(size) });
  fs.mkdirSync(path.join(root, 'public'), { recursive: true });
  fs.writeFileSync(path.join(root, 'public', 'favicon.ico'), ico(images));
  console.log(`public/favicon.ico (${ICO_SIZES.join(', ')} px)`);
} finally {
  await browser.close();
}
