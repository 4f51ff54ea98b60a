import { inflateRawSync } from 'node:zlib';
import { expect, type APIRequestContext } from '@playwright/test';

/**
 * A tiny public knowledge base with integer ids (STaRK's exports need them; the demo catalogue's ids are
 * like P0001): two products of one brand, made of one material.
 */
export const GEAR_ENTITIES = [
  { id: 301, type: 'product', name: 'Alpine trail tent', document: { description: 'A two-person tent with a storm-proof fly for exposed alpine camps.' } },
  { id: 302, type: 'brand', name: 'Northpeak', document: { description: 'An outdoor brand making tents and bivy sacks for high mountains.' } },
  { id: 303, type: 'material', name: 'Ripstop nylon', document: { description: 'A light woven fabric that resists tearing.' } },
  { id: 304, type: 'product', name: 'Summit bivy', document: { description: 'A one-person bivy sack.' } },
];
const GEAR_EDGES = ['source\trelation\ttarget', '301\thas_brand\t302', '301\tmade_of\t303', '304\thas_brand\t302', '304\tmade_of\t303'].join('\n');

/** Imports it under `slug` through the upload and import API and waits until it is published. */
export async function importGearKb(api: APIRequestContext, slug: string): Promise<void> {
  const upload = async (name: string, body: string) => {
    const res = await api.put(`/api/uploads?name=${encodeURIComponent(name)}`, { data: body, headers: { 'content-type': 'application/octet-stream' } });
    expect(res.status(), `upload of ${name}`).toBe(201);
    return ((await res.json()) as { uploadId: string }).uploadId;
  };
  const uploads = [await upload('entities.jsonl', GEAR_ENTITIES.map((e) => JSON.stringify(e)).join('\n')), await upload('edges.tsv', GEAR_EDGES)];
  const start = await api.post('/api/imports', { data: { slug, name: 'Mountain gear', format: 'native', visibility: 'PUBLIC', uploads } });
  expect(start.status(), await start.text()).toBe(202);
  const { jobId } = (await start.json()) as { jobId: number };
  await expect.poll(async () => ((await (await api.get(`/api/imports/${jobId}`)).json()) as { status: string }).status, { timeout: 30_000 }).toBe('SUCCEEDED');
}

/** The files of a zip archive by name (stored or deflated entries, read through the central directory). */
export function unzip(zip: Buffer): Map<string, string> {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  expect(end, 'end of the central directory').toBeGreaterThanOrEqual(0);
  const files = new Map<string, string>();
  let at = zip.readUInt32LE(end + 16);
  for (let n = zip.readUInt16LE(end + 10); n > 0; n--) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    files.set(name, (method === 8 ? inflateRawSync(data) : data).toString('utf8'));
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return files;
}
