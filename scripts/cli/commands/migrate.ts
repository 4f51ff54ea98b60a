import { migrate } from '../../../lib/db/migrate';
import { withDatabase } from '../database';
import { report } from '../output';

export async function run(opts: { json?: boolean }): Promise<void> {
  const result = await withDatabase((url) => migrate(url), { quiet: opts.json, migrate: false });
  report(!!opts.json, result, () =>
    result.applied.length ? `Applied ${result.applied.join(', ')}` : `Up to date (${result.alreadyApplied.length} migrations applied earlier)`);
}
