import type { Prisma } from './db/generated/client';

type Tx = Pick<Prisma.TransactionClient, 'auditLog'>;

export interface AuditEntry {
  userId: number | null;
  action: string;
  targetType: string;
  targetId: string | number;
  kbId?: number;
  details?: Prisma.InputJsonValue;
}

/** Records a change; call it inside the transaction that makes the change so both land or neither. */
export async function audit(tx: Tx, entry: AuditEntry): Promise<void> {
  await tx.auditLog.create({
    data: {
      userId: entry.userId,
      action: entry.action,
      targetType: entry.targetType,
      targetId: String(entry.targetId),
      kbId: entry.kbId ?? null,
      details: entry.details ?? {},
    },
  });
}
