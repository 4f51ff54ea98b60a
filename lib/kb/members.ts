import type { PrismaClient } from '../db/generated/client';
import { Role, type Visibility } from '../db/generated/enums';
import { audit } from '../audit';
import { forbidden, notFound } from '../errors';
import type { KbSummary } from './access';

interface Actor {
  id: number;
  role: Role;
}

export interface KbMemberRow {
  userId: number;
  email: string;
  name: string | null;
  role: Role;
  since: Date;
}

/** Admins manage every knowledge base's access; curators those they are members of. */
export async function canManageKb(db: PrismaClient, actor: Actor, kbId: number): Promise<boolean> {
  if (actor.role === Role.ADMIN) return true;
  if (actor.role !== Role.CURATOR) return false;
  const member = await db.kbMember.findUnique({ where: { kbId_userId: { kbId, userId: actor.id } }, select: { kbId: true } });
  return member !== null;
}

export async function assertCanManageKb(db: PrismaClient, actor: Actor, kbId: number): Promise<void> {
  if (!(await canManageKb(db, actor, kbId))) throw forbidden('Only admins and this knowledge base\'s curators manage its access');
}

export async function listMembers(db: PrismaClient, kbId: number): Promise<KbMemberRow[]> {
  const rows = await db.kbMember.findMany({
    where: { kbId },
    select: { createdAt: true, user: { select: { id: true, email: true, name: true, role: true } } },
    orderBy: { user: { email: 'asc' } },
  });
  return rows.map((r) => ({ userId: r.user.id, email: r.user.email, name: r.user.name, role: r.user.role, since: r.createdAt }));
}

export async function addMember(db: PrismaClient, actor: Actor, kb: KbSummary, email: string): Promise<KbMemberRow[]> {
  await assertCanManageKb(db, actor, kb.id);
  await db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { email }, select: { id: true } });
    if (!user) throw notFound(`No user with email ${email}`);
    await tx.kbMember.upsert({ where: { kbId_userId: { kbId: kb.id, userId: user.id } }, create: { kbId: kb.id, userId: user.id }, update: {} });
    await audit(tx, { userId: actor.id, action: 'kb.member.add', targetType: 'user', targetId: user.id, kbId: kb.id });
  });
  return listMembers(db, kb.id);
}

export async function removeMember(db: PrismaClient, actor: Actor, kb: KbSummary, userId: number): Promise<KbMemberRow[]> {
  await assertCanManageKb(db, actor, kb.id);
  await db.$transaction(async (tx) => {
    const { count } = await tx.kbMember.deleteMany({ where: { kbId: kb.id, userId } });
    if (count === 0) throw notFound(`User ${userId} is not a member of ${kb.slug}`);
    await audit(tx, { userId: actor.id, action: 'kb.member.remove', targetType: 'user', targetId: userId, kbId: kb.id });
  });
  return listMembers(db, kb.id);
}

export async function setVisibility(db: PrismaClient, actor: Actor, kb: KbSummary, visibility: Visibility): Promise<Visibility> {
  await assertCanManageKb(db, actor, kb.id);
  await db.$transaction(async (tx) => {
    await tx.knowledgeBase.update({ where: { id: kb.id }, data: { visibility } });
    await audit(tx, { userId: actor.id, action: 'kb.visibility', targetType: 'knowledge_base', targetId: kb.id, kbId: kb.id, details: { from: kb.visibility, to: visibility } });
  });
  return visibility;
}
