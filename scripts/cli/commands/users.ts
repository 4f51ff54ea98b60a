import { listUsers } from '../../../lib/auth/users';
import { db } from '../../../lib/db/client';
import { withDatabase } from '../database';
import { report } from '../output';

export async function run(opts: { json?: boolean }): Promise<void> {
  const users = await withDatabase(() => listUsers(db()), { quiet: opts.json });
  report(!!opts.json, users, () =>
    users.map((u) => `${String(u.id).padStart(4)}  ${u.role.padEnd(9)} ${u.email}${u.disabled ? ' (disabled)' : ''}`).join('\n') || 'No users');
}
