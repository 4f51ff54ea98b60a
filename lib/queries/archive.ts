import { Readable } from 'node:stream';
import { ZipArchive } from 'archiver';
import type { Queryable } from '../db/transaction';
import { exportFiles, type ExportFile, type ExportVariant } from './export';
import type { QuerySource } from './read';
import type { QueryFormat } from './types';

/**
 * A zip of the files `exportFiles` writes, each format in its own folder under `root` (JSONL at the top),
 * plus any extra files (the dataset card, the Hugging Face folder). The file lists are settled first, so a format that cannot
 * hold the set fails before any byte is sent; then files are added one after another as their rows are
 * read, so the archive streams out without the set in memory.
 */
export async function exportArchive(db: Queryable, source: QuerySource, opts: { root: string; formats: QueryFormat[]; variant?: ExportVariant; extra?: { path: string; content: string | Buffer }[] }): Promise<Readable> {
  const entries: { name: string; file: ExportFile }[] = [];
  for (const format of opts.formats) {
    const folder = format === 'jsonl' ? opts.root : `${opts.root}/${format}`;
    for (const file of await exportFiles(db, source, format, opts.variant)) entries.push({ name: `${folder}/${file.path}`, file });
  }
  const zip = new ZipArchive({ zlib: { level: 6 } });
  (async () => {
    for (const extra of opts.extra ?? []) zip.append(extra.content, { name: `${opts.root}/${extra.path}` });
    for (const { name, file } of entries) {
      const content = Readable.from(file.content());
      zip.append(content, { name });
      // archiver queues entries; waiting for each keeps one database read in flight at a time.
      await new Promise<void>((resolve, reject) => { content.once('end', resolve); content.once('error', reject); });
    }
    await zip.finalize();
  })().catch((err: Error) => zip.destroy(err));
  return zip;
}
