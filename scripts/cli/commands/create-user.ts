import { createUser } from '../../../lib/auth/users';
import type { Role } from '../../../lib/auth/roles';
import { db } from '../../../lib/db/client';
import { withDatabase } from '../database';
import { report } from '../output';
import { readPassword } from '../password-input';

export async function run(opts: { email: string; role: Role; name?: string; json?: boolean }): Promise<void> {
  const password = await readPassword();
  const user = await withDatabase(() => createUser(db(), { email: opts.email, password, role: opts.role, name: opts.name }), { quiet: opts.json });
  report(!!opts.json, user, () => `Created ${user.role.toLowerCase()} ${user.email} (id ${user.id})`);
}
