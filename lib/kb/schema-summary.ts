import type { PrismaClient } from '../db/generated/client';

export interface KbSchemaSummary {
  nodeTypes: { id: number; name: string; entityCount: number }[];
  edgeTypes: { id: number; name: string; edgeCount: bigint }[];
}

export async function kbSchemaSummary(db: PrismaClient, kbId: number): Promise<KbSchemaSummary> {
  const [nodeTypes, edgeTypes] = await Promise.all([
    db.nodeType.findMany({ where: { kbId }, select: { id: true, name: true, entityCount: true }, orderBy: { entityCount: 'desc' } }),
    db.edgeType.findMany({ where: { kbId }, select: { id: true, name: true, edgeCount: true }, orderBy: { edgeCount: 'desc' } }),
  ]);
  return { nodeTypes, edgeTypes };
}
