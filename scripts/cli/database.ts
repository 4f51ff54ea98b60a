import { closeDb } from '../../lib/db/client';
import { openEmbedded, type EmbeddedDatabase } from '../../lib/db/embedded';
import { migrate } from '../../lib/db/migrate';

/**
 * Runs a command against the app's database: DATABASE_URL when set, otherwise the embedded one
 * (through the running app's server if there is one, else opened here for the command's duration).
 * Migrations are applied first, so every command works on a fresh database.
 */
export async function withDatabase<T>(run: (url: string) => Promise<T>, opts: { quiet?: boolean; migrate?: boolean } = {}): Promise<T> {
  let embedded: EmbeddedDatabase | undefined;
  if (!process.env.DATABASE_URL) {
    embedded = await openEmbedded({ owner: 'cli', log: (m) => opts.quiet || console.error(m) });
    process.env.DATABASE_URL = embedded.url;
  }
  try {
    if (opts.migrate !== false) await migrate(process.env.DATABASE_URL!);
    return await run(process.env.DATABASE_URL!);
  } finally {
    await closeDb();
    if (embedded) {
      await embedded.stop();
      delete process.env.DATABASE_URL;
    }
  }
}
