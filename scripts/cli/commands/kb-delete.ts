import { pool } from '../../../lib/db/client';
import { kbIdBySlug } from '../../../lib/kb/access';
import { deleteKnowledgeBase } from '../../../lib/kb/delete';
import { withDatabase } from '../database';
import { report } from '../output';

export async function run(slug: string, opts: { json?: boolean }): Promise<void> {
  await withDatabase(async () => deleteKnowledgeBase(pool(), await kbIdBySlug(pool(), slug)), { quiet: opts.json });
  report(!!opts.json, { deleted: slug }, () => `Deleted ${slug}`);
}
