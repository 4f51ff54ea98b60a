import { endUserSessions, listUsers, resetPassword, setUserDisabled, userIdByEmail, type PublicUser } from '../../../lib/auth/users';
import { db } from '../../../lib/db/client';
import { withDatabase } from '../database';
import { report } from '../output';
import { readPassword } from '../password-input';

export async function run(opts: { json?: boolean }): Promise<void> {
  const users = await withDatabase(() => listUsers(db()), { quiet: opts.json });
  report(!!opts.json, users, () =>
    users.map((u) => `${String(u.id).padStart(4)}  ${u.role.padEnd(9)} ${u.email}${u.disabled ? ' (disabled)' : ''}`).join('\n') || 'No users');
}

type AccountAction = 'disable' | 'enable' | 'reset-password' | 'sign-out';

const done: Record<AccountAction, string> = {
  disable: 'Disabled %s and ended their sessions',
  enable: 'Enabled %s',
  'reset-password': 'Set a new password for %s and ended their sessions',
  'sign-out': 'Signed %s out everywhere',
};

/** `skb users disable|enable|reset-password|sign-out --email E`, audited like the same actions in the app. */
export async function runAction(action: AccountAction, opts: { email: string; json?: boolean }): Promise<void> {
  const password = action === 'reset-password' ? await readPassword() : '';
  const user = await withDatabase(async (): Promise<PublicUser> => {
    const id = await userIdByEmail(db(), opts.email);
    if (action === 'disable' || action === 'enable') return setUserDisabled(db(), null, id, action === 'disable');
    if (action === 'reset-password') return resetPassword(db(), null, id, password);
    return endUserSessions(db(), null, id);
  }, { quiet: opts.json });
  report(!!opts.json, user, () => done[action].replace('%s', user.email));
}
