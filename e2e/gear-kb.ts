import { expect, type APIRequestContext } from '@playwright/test';
import { zipEntries } from '../test/support/zip-entries';

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

/** Sends a file to the upload API; its upload id. */
export async function uploadFile(api: APIRequestContext, name: string, body: string): Promise<string> {
  const res = await api.put(`/api/uploads?name=${encodeURIComponent(name)}`, { data: body, headers: { 'content-type': 'application/octet-stream' } });
  expect(res.status(), `upload of ${name}`).toBe(201);
  return ((await res.json()) as { uploadId: string }).uploadId;
}

/** Imports it under `slug` through the upload and import API and waits until it is published. */
export async function importGearKb(api: APIRequestContext, slug: string): Promise<void> {
  const upload = (name: string, body: string) => uploadFile(api, name, body);
  const uploads = [await upload('entities.jsonl', GEAR_ENTITIES.map((e) => JSON.stringify(e)).join('\n')), await upload('edges.tsv', GEAR_EDGES)];
  const start = await api.post('/api/imports', { data: { slug, name: 'Mountain gear', format: 'native', visibility: 'PUBLIC', uploads } });
  expect(start.status(), await start.text()).toBe(202);
  const { jobId } = (await start.json()) as { jobId: number };
  await expect.poll(async () => ((await (await api.get(`/api/imports/${jobId}`)).json()) as { status: string }).status, { timeout: 30_000 }).toBe('SUCCEEDED');
}

/** The files of a zip archive by name (stored or deflated entries, read through the central directory). */
export function unzip(zip: Buffer): Map<string, string> {
  return new Map([...zipEntries(zip)].map(([name, bytes]) => [name, bytes.toString('utf8')]));
}
