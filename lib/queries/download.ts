import { Readable } from 'node:stream';
import type { Queryable } from '../db/transaction';
import { exportArchive } from './archive';
import { exportFiles, type ExportVariant } from './export';
import type { QuerySource } from './read';
import type { QueryFormat } from './types';
import type { ReleaseWithRecord } from './releases';
import type { QuerySetSummary } from './sets';
import { huggingFaceFolder, releaseRecord } from '../release/folder';
import { HF_FOLDER, type ReleaseFormat } from '../release/formats';

function attachment(body: Readable, fileName: string, type: string): Response {
  return new Response(Readable.toWeb(body) as ReadableStream<Uint8Array>, {
    headers: { 'content-type': type, 'content-disposition': `attachment; filename="${fileName}"` },
  });
}

/**
 * An export as an HTTP download: JSONL as the file itself, the several-file formats as a zip. The spreadsheet
 * variant is named so (`…-stark-spreadsheet.zip`) that it is not taken for the exact data.
 */
export async function downloadResponse(db: Queryable, source: QuerySource, format: QueryFormat, baseName: string, variant: ExportVariant = 'exact'): Promise<Response> {
  if (format === 'jsonl') {
    const [file] = await exportFiles(db, source, 'jsonl', variant);
    return attachment(Readable.from(file!.content()), `${baseName}.jsonl`, 'application/x-ndjson; charset=utf-8');
  }
  const root = `${baseName}-${format}${variant === 'spreadsheet' ? '-spreadsheet' : ''}`;
  return attachment(await exportArchive(db, source, { root, formats: [format], variant }), `${root}.zip`, 'application/zip');
}

/**
 * A release's archive: its dataset card, the chosen formats (JSONL always, as the hash is of it) and, when
 * `hf` is chosen, the folder ready for Hugging Face with its Croissant file.
 */
export async function releaseDownload(db: Queryable, target: { set: QuerySetSummary; kb: { name: string; slug: string }; release: ReleaseWithRecord; requestUrl: string },
  baseName: string, formats: ReleaseFormat[]): Promise<Response> {
  const { set, kb, release } = target;
  const chosen = [...new Set<QueryFormat>(['jsonl', ...formats.filter((f): f is QueryFormat => f !== 'hf')])];
  const extra: { path: string; content: string | Buffer }[] = [{ path: 'README.md', content: release.card }];
  if (formats.includes('hf')) {
    const record = await releaseRecord(db, set, kb, release, target.requestUrl);
    for (const file of await huggingFaceFolder(db, set.kbId, release.id, record)) extra.push({ path: `${HF_FOLDER}/${file.path}`, content: file.bytes });
  }
  return attachment(await exportArchive(db, { releaseId: release.id }, { root: baseName, formats: chosen, extra }), `${baseName}.zip`, 'application/zip');
}
