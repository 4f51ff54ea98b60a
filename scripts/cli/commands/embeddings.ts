import fs from 'node:fs';
import path from 'node:path';
import cliProgress from 'cli-progress';
import { pool } from '../../../lib/db/client';
import { kbIdBySlug } from '../../../lib/kb/access';
import { querySetByName } from '../../../lib/queries/sets';
import { importEmbeddings } from '../../../lib/vectors/import';
import { readEmbeddingFile } from '../../../lib/vectors/readers';
import { embeddingNameSchema, listEmbeddingSets } from '../../../lib/vectors/sets';
import { withDatabase } from '../database';
import { report } from '../output';
import { plural } from '../../../lib/format/plural';

export interface EmbeddingsImportOptions {
  kb: string;
  set?: string;
  name: string;
  file: string;
  ids?: string;
  json?: boolean;
}

/** The knowledge base and, with --set, its query set the vectors belong to. */
async function owner(kb: string, set: string | undefined): Promise<{ kbId: number; querySetId: number | null }> {
  const kbId = await kbIdBySlug(pool(), kb);
  if (!set) return { kbId, querySetId: null };
  const querySet = await querySetByName(pool(), set);
  if (querySet.kbId !== kbId) throw new Error(`--set: query set "${set}" is not on knowledge base ${kb}`);
  return { kbId, querySetId: querySet.id };
}

export async function runImport(opts: EmbeddingsImportOptions): Promise<void> {
  const name = embeddingNameSchema.safeParse(opts.name);
  if (!name.success) throw new Error(`--name: ${name.error.issues[0]!.message}`);
  for (const f of [opts.file, opts.ids]) if (f && !fs.existsSync(f)) throw new Error(`No such file: ${f}`);
  const total = fs.statSync(opts.file).size;
  const bar = !opts.json && process.stderr.isTTY
    ? new cliProgress.SingleBar({ format: 'embeddings [{bar}] {percentage}% | {value}/{total} MB', stream: process.stderr }, cliProgress.Presets.shades_classic)
    : null;
  const mb = (bytes: number) => Math.round(bytes / 1e6);
  const summary = await withDatabase(async () => {
    const target = await owner(opts.kb, opts.set);
    bar?.start(mb(total), 0);
    try {
      const input = readEmbeddingFile({ path: opts.file, name: path.basename(opts.file) }, opts.ids ? { path: opts.ids, name: path.basename(opts.ids) } : null,
        (bytes) => bar?.update(mb(bytes)));
      return await importEmbeddings(pool(), input, target, { name: name.data, fileName: path.basename(opts.file), userId: null });
    } finally {
      bar?.stop();
    }
  }, { quiet: opts.json });
  report(!!opts.json, summary, () =>
    `${summary.replaced ? 'Replaced' : 'Imported'} ${summary.kind} embeddings "${summary.name}" on ${opts.set ? `query set ${opts.set}` : opts.kb}: ${plural(summary.count, 'vector')} of ${plural(summary.dimension, 'dimension')}`);
}

export async function runList(opts: { kb: string; set?: string; json?: boolean }): Promise<void> {
  const sets = await withDatabase(async () => {
    const target = await owner(opts.kb, opts.set);
    return listEmbeddingSets(pool(), target.kbId, target.querySetId);
  }, { quiet: opts.json });
  report(!!opts.json, sets, () => sets.length
    ? sets.map((s) => `${s.name.padEnd(30)} ${String(s.count).padStart(9)} vectors ${String(s.dimension).padStart(6)} dimensions  ${s.fileName}`).join('\n')
    : `No embeddings on ${opts.set ? `query set ${opts.set}` : opts.kb}`);
}
