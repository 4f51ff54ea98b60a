import { pool } from '../../../lib/db/client';
import { kbIdBySlug } from '../../../lib/kb/access';
import { kbStatistics } from '../../../lib/kb/stats';
import { withDatabase } from '../database';
import { report } from '../output';

export async function run(slug: string, opts: { json?: boolean }): Promise<void> {
  const stats = await withDatabase(async () => kbStatistics(pool(), await kbIdBySlug(pool(), slug)), { quiet: opts.json });
  const n = (x: number) => x.toLocaleString('en');
  report(!!opts.json, stats, () => [
    `${stats.slug}: ${n(stats.entities)} entities, ${n(stats.edges)} edges`,
    'Entity types:', ...stats.entityTypes.map((t) => `  ${t.name.padEnd(28)} ${n(t.count).padStart(12)}`),
    'Relations:', ...stats.relations.map((r) => `  ${`${r.name}${r.symmetric ? ' (symmetric)' : ''}`.padEnd(28)} ${n(r.count).padStart(12)}`),
    'Typed triples:', ...stats.triples.map((t) => `  ${`${t.source} -${t.relation}-> ${t.target}`.padEnd(60)} ${n(t.count).padStart(12)}`),
    'Degree distribution:', ...stats.degreeHistogram.map((b) => `  ${(b.min === b.max ? `${b.min}` : `${b.min}-${b.max}`).padEnd(16)} ${n(b.count).padStart(12)}`),
    'Hubs:', ...stats.hubs.map((h) => `  ${h.name.padEnd(40)} ${h.type.padEnd(20)} ${n(h.degree).padStart(10)}`),
  ].join('\n'));
}
