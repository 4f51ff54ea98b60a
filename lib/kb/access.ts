import type pg from 'pg';
import type { Prisma, PrismaClient } from '../db/generated/client';
import { KbStatus, Role, Visibility } from '../db/generated/enums';
import { notFound } from '../errors';

interface Viewer {
  id: number;
  role: Role;
}

/**
 * Which knowledge bases a user sees: admins all; others the public ones and the private ones they
 * are members of. Knowledge bases still loading are hidden from everyone.
 */
export function visibleKbWhere(user: Viewer): Prisma.KnowledgeBaseWhereInput {
  const ready = { status: KbStatus.READY };
  if (user.role === Role.ADMIN) return ready;
  return { ...ready, OR: [{ visibility: Visibility.PUBLIC }, { members: { some: { userId: user.id } } }] };
}

/**
 * The same rule as `visibleKbWhere`, as an SQL condition on a knowledge base aliased `k`, for hot paths that
 * check access in the statement that reads the row: `admin` and `userId` are the placeholders of the user's
 * being an admin and their id.
 */
export function kbVisibleSql(admin: string, userId: string): string {
  return `k.status = 'READY' AND (${admin} OR k.visibility = 'PUBLIC' OR EXISTS (SELECT 1 FROM kb_member m WHERE m.kb_id = k.id AND m.user_id = ${userId}))`;
}

export const kbSummaryFields = {
  id: true,
  slug: true,
  name: true,
  description: true,
  source: true,
  license: true,
  visibility: true,
  entityCount: true,
  edgeCount: true,
  updatedAt: true,
} as const;

export type KbSummary = Prisma.KnowledgeBaseGetPayload<{ select: typeof kbSummaryFields }>;

export async function listVisibleKbs(db: PrismaClient, user: Viewer): Promise<KbSummary[]> {
  return db.knowledgeBase.findMany({ where: visibleKbWhere(user), select: kbSummaryFields, orderBy: { name: 'asc' } });
}

/** A knowledge base the user may not see answers 404, not 403, so private ones do not reveal they exist. */
export async function getVisibleKb(db: PrismaClient, user: Viewer, slug: string): Promise<KbSummary> {
  const kb = await db.knowledgeBase.findFirst({ where: { slug, ...visibleKbWhere(user) }, select: kbSummaryFields });
  if (!kb) throw notFound(`No knowledge base "${slug}"`);
  return kb;
}

/** Any knowledge base by slug, visible or not: for the CLI, which runs with the database's full rights. */
export async function kbIdBySlug(db: Pick<pg.Pool, 'query'>, slug: string): Promise<number> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM knowledge_base WHERE slug = $1', [slug]);
  if (!rows[0]) throw notFound(`No knowledge base "${slug}"`);
  return rows[0].id;
}
