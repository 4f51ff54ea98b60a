import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { pool } from '../../../lib/db/client';
import { kbIdBySlug } from '../../../lib/kb/access';
import { exportFiles } from '../../../lib/queries/export';
import { importQueries, type UnknownIdPolicy } from '../../../lib/queries/import';
import { cliQueryFiles, readQueryInput } from '../../../lib/queries/input';
import { createRelease, querySourceOf } from '../../../lib/queries/releases';
import { listQuerySets, querySetByName, setNameSchema } from '../../../lib/queries/sets';
import { querySourceStats } from '../../../lib/queries/stats';
import type { QueryFormat, QueryOrigin } from '../../../lib/queries/types';
import { withDatabase } from '../database';
import { report } from '../output';
import { plural } from '../../../lib/format/plural';

export interface QueriesImportOptions {
  kb: string;
  set: string;
  format: QueryFormat;
  splits?: string;
  origin: QueryOrigin;
  description?: string;
  license?: string;
  unknownIds: UnknownIdPolicy;
  replace?: boolean;
  json?: boolean;
}

export async function runImport(files: string[], opts: QueriesImportOptions): Promise<void> {
  const name = setNameSchema.safeParse(opts.set);
  if (!name.success) throw new Error(`--set: ${name.error.issues[0]!.message}`);
  const missing = files.filter((f) => !fs.existsSync(f));
  if (missing.length) throw new Error(`No such file: ${missing.join(', ')}`);
  if (opts.splits && !fs.existsSync(opts.splits)) throw new Error(`--splits: no such folder ${opts.splits}`);
  const summary = await withDatabase(async () => {
    const input = await readQueryInput(opts.format, cliQueryFiles(opts.format, files, opts.splits));
    return importQueries(pool(), input.records, {
      kbId: await kbIdBySlug(pool(), opts.kb), setName: opts.set, origin: opts.origin, description: opts.description, license: opts.license,
      splits: input.splits, unknownIds: opts.unknownIds, replace: opts.replace, userId: null, sourceName: files.map((f) => path.basename(f)).join(', '),
    });
  }, { quiet: opts.json });
  report(!!opts.json, summary, () => [
    `${summary.replaced ? 'Replaced' : 'Imported'} query set ${summary.setName}: ${plural(summary.queries, 'query')}`,
    ...Object.entries(summary.splits).map(([s, n]) => `  ${s.padEnd(8)} ${n.toLocaleString('en')}`),
    ...(summary.unresolved.count ? [`${plural(summary.unresolved.count, 'entity id')} not in the knowledge base kept unresolved (${plural(summary.unresolved.queries, 'query')}), e.g. ${summary.unresolved.examples.slice(0, 5).join(', ')}`] : []),
  ].join('\n'));
}

export async function runExport(opts: { set: string; format: QueryFormat; out: string; release?: number; json?: boolean }): Promise<void> {
  const written = await withDatabase(async () => {
    const set = await querySetByName(pool(), opts.set);
    const files = await exportFiles(pool(), await querySourceOf(pool(), set.id, opts.release), opts.format);
    const result: { path: string; bytes: number }[] = [];
    for (const file of files) {
      const target = path.join(opts.out, file.path);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      // Written beside the target and renamed, so a failed export never leaves a half-written file.
      const partial = `${target}.partial`;
      await pipeline(Readable.from(file.content()), fs.createWriteStream(partial));
      fs.renameSync(partial, target);
      result.push({ path: target, bytes: fs.statSync(target).size });
    }
    return result;
  }, { quiet: opts.json });
  report(!!opts.json, { files: written }, () => written.map((f) => `${f.path} (${f.bytes.toLocaleString('en')} bytes)`).join('\n'));
}

export async function runStats(opts: { set: string; release?: number; json?: boolean }): Promise<void> {
  const stats = await withDatabase(async () => {
    const set = await querySetByName(pool(), opts.set);
    return querySourceStats(pool(), set.kbId, await querySourceOf(pool(), set.id, opts.release));
  }, { quiet: opts.json });
  const row = (label: string, s: { queries: number; multiAnswer: number; averageAnswers: number; averageWords: number }) =>
    `  ${label.padEnd(10)} ${String(s.queries).padStart(8)} ${String(s.multiAnswer).padStart(10)} ${s.averageAnswers.toFixed(2).padStart(10)} ${s.averageWords.toFixed(1).padStart(8)}`;
  report(!!opts.json, stats, () => [
    `${opts.set}${opts.release ? ` release ${opts.release}` : ''}`,
    `  ${'split'.padEnd(10)} ${'queries'.padStart(8)} ${'several'.padStart(10)} ${'answers'.padStart(10)} ${'words'.padStart(8)}`,
    ...stats.bySplit.map((s) => row(s.split ?? '(none)', s)),
    row('all', stats),
    `Splits: ${stats.splits.map((s) => `${s.split ?? '(none)'} ${(s.ratio * 100).toFixed(1)}%`).join(', ')}`,
    `Query words: entropy ${stats.lexical.entropyBits.toFixed(2)} bits, type-token ratio ${stats.lexical.typeTokenRatio.toFixed(4)} (${stats.lexical.types} types, ${stats.lexical.tokens} tokens)`,
    ...(stats.unresolvedAnswers ? [`Answer ids not in the knowledge base: ${stats.unresolvedAnswers}`] : []),
  ].join('\n'));
}

export async function runList(opts: { kb: string; json?: boolean }): Promise<void> {
  const sets = await withDatabase(async () => listQuerySets(pool(), await kbIdBySlug(pool(), opts.kb)), { quiet: opts.json });
  report(!!opts.json, sets, () => sets.length
    ? sets.map((s) => `${s.name.padEnd(30)} ${s.origin.padEnd(12)} ${String(s.queries).padStart(8)} queries ${String(s.releases).padStart(3)} releases`).join('\n')
    : `No query sets on ${opts.kb}`);
}

export async function runRelease(opts: { set: string; name: string; notes?: string; json?: boolean }): Promise<void> {
  const release = await withDatabase(async () => {
    const set = await querySetByName(pool(), opts.set);
    const kb = (await pool().query<{ name: string; slug: string }>('SELECT name, slug FROM knowledge_base WHERE id = $1', [set.kbId])).rows[0]!;
    return createRelease(pool(), set, kb, { name: opts.name, notes: opts.notes, userId: null });
  }, { quiet: opts.json });
  report(!!opts.json, release, () => `Release ${release.number} of ${opts.set}: ${release.queryCount} queries, sha256:${release.contentHash}`);
}
