import type { Metadata } from 'next';
import { requirePageUser } from '@/lib/auth/page-guard';
import { UserAdmin } from '@/components/user-admin';

export const metadata: Metadata = { title: 'Users' };

export default async function UsersPage() {
  const admin = await requirePageUser('/admin/users', 'users:manage');
  return (
    <section>
      <h1 className="mb-4 text-2xl font-semibold">Users</h1>
      <UserAdmin currentUserId={admin.id} />
    </section>
  );
}
