import { db, pool } from '../../../lib/db/client';
import { seedDemo } from '../../../lib/demo/seed';
import { withDatabase } from '../database';
import { report } from '../output';

export async function run(opts: { replace?: boolean; json?: boolean }): Promise<void> {
  const result = await withDatabase(() => seedDemo(pool(), db(), { replace: opts.replace, password: process.env.SKB_DEMO_PASSWORD }), { quiet: opts.json });
  report(!!opts.json, result, () => [
    ...result.knowledgeBases.map((k) => `${k.loaded ? 'Loaded' : 'Already present'}: ${k.slug} (${k.entities} entities, ${k.edges} edges)`),
    ...result.users.map((u) => `${u.email} (${u.role.toLowerCase()}): ${u.password ?? 'existing account, password unchanged'}`),
  ].join('\n'));
}
