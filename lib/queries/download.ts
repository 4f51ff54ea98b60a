import { Readable } from 'node:stream';
import type { Queryable } from '../db/transaction';
import { exportArchive } from './archive';
import { exportFiles, type ExportVariant } from './export';
import type { QuerySource } from './read';
import type { QueryFormat } from './types';

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

/** A release's archive: its dataset card and the chosen formats (JSONL always, as the hash is of it). */
export async function releaseDownload(db: Queryable, releaseId: number, baseName: string, formats: QueryFormat[], card: string): Promise<Response> {
  const chosen = [...new Set<QueryFormat>(['jsonl', ...formats])];
  return attachment(await exportArchive(db, { releaseId }, { root: baseName, formats: chosen, extra: [{ path: 'README.md', text: card }] }), `${baseName}.zip`, 'application/zip');
}
