import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { IngestIssue, type EdgeRecord, type EntityRecord, type KnowledgeSource } from '../../../lib/ingest/source';

/** Everything a source yields, by kind; issues keep their pass. */
export interface Drained {
  entities: EntityRecord[];
  edges: EdgeRecord[];
  entityIssues: string[];
  edgeIssues: string[];
}

export async function drain(source: KnowledgeSource): Promise<Drained> {
  const out: Drained = { entities: [], edges: [], entityIssues: [], edgeIssues: [] };
  for await (const item of source.entities()) {
    if (item instanceof IngestIssue) out.entityIssues.push(item.toString());
    else out.entities.push(item);
  }
  for await (const item of source.edges()) {
    if (item instanceof IngestIssue) out.edgeIssues.push(item.toString());
    else out.edges.push(item);
  }
  return out;
}

/** The IngestIssue a pass throws, as text; fails when it throws something else or nothing. */
export async function thrownIssue(pass: () => AsyncIterable<unknown>): Promise<string> {
  try {
    for await (const item of pass()) void item;
  } catch (err) {
    if (err instanceof IngestIssue) return err.toString();
    throw err;
  }
  throw new Error('expected the pass to throw an IngestIssue');
}

export function countBy<T>(items: T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

/** The message JSON.parse gives for `text`, so tests state the exact issue on any Node version. */
export function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`${text} is valid JSON`);
}

/** Bytes that are not UTF-8: 0xff and 0xfe never occur in it. */
export const BAD_UTF8 = Buffer.from([0xff, 0xfe]);

/** Writes files into a fresh temporary folder, removed after the test file's tests. */
export function scratch(): (name: string, ...parts: (string | Buffer)[]) => string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-readers-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return (name, ...parts) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))));
    return file;
  };
}

/** A file of the shared real data (../shared/data); its absence fails the test with what to fetch. */
export function dataFile(...parts: string[]): string {
  const file = path.resolve(process.cwd(), '..', 'shared', 'data', ...parts);
  if (!fs.existsSync(file)) {
    throw new Error(`Real test data missing: ${file}. Tests need ../shared/data beside the checkout (see its README.md).`);
  }
  return file;
}
