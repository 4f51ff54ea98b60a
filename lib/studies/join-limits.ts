import type { Queryable } from '../db/transaction';

/**
 * How fast a study link may issue participants, and how long a participant it issued may hold items without
 * rating. A participant takes their places when they start, so without these a script could join again and
 * again and leave nothing for real participants.
 */
export interface JoinLimits {
  /** The window both join limits count in, in minutes. */
  windowMinutes: number;
  /** Joins through one study link from one address per window. */
  perAddress: number;
  /** Joins through one study link from all addresses together per window. */
  perLink: number;
  /** Minutes after starting without a rating, after which a study-link participant's items go back. */
  reclaimMinutes: number;
}

export const JOIN_LIMIT_DEFAULTS: JoinLimits = { windowMinutes: 10, perAddress: 5, perLink: 300, reclaimMinutes: 60 };

const SETTINGS: Record<Exclude<keyof JoinLimits, 'windowMinutes'>, string> = {
  perAddress: 'SKB_STUDY_JOINS_PER_ADDRESS',
  perLink: 'SKB_STUDY_JOINS_PER_LINK',
  reclaimMinutes: 'SKB_STUDY_RECLAIM_MINUTES',
};

/** The limits in force: the defaults, each replaced by its environment variable when set. */
export function joinLimits(env: Record<string, string | undefined> = process.env): JoinLimits {
  const limits = { ...JOIN_LIMIT_DEFAULTS };
  for (const [key, name] of Object.entries(SETTINGS) as [keyof typeof SETTINGS, string][]) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    const n = Number(raw);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number, not "${raw}"`);
    limits[key] = n;
  }
  return limits;
}

/**
 * Seconds until the link may issue a participant to `address` again, or 0 when it may now. Call it with the
 * study's join lock held, then `recordJoin`, so concurrent joins count each other.
 */
export async function joinWait(db: Queryable, studyId: number, address: string, limits: JoinLimits): Promise<number> {
  // Joins that no longer count are dropped as they age out, so the table holds one window per link.
  await db.query(`DELETE FROM study_join WHERE study_id = $1 AND at <= now() - make_interval(mins => $2)`, [studyId, limits.windowMinutes]);
  // The window frees up when the oldest join that counts towards a full limit leaves it.
  const { rows: [wait] } = await db.query<{ seconds: number }>(
    `SELECT coalesce(ceil(extract(epoch FROM greatest(
              (SELECT at FROM study_join WHERE study_id = $1 AND address = $2 ORDER BY at DESC OFFSET $3 - 1 LIMIT 1),
              (SELECT at FROM study_join WHERE study_id = $1 ORDER BY at DESC OFFSET $4 - 1 LIMIT 1)
            ) + make_interval(mins => $5) - now())), 0)::int AS seconds`,
    [studyId, address, limits.perAddress, limits.perLink, limits.windowMinutes]);
  return Math.max(0, wait!.seconds);
}

export async function recordJoin(db: Queryable, studyId: number, address: string): Promise<void> {
  await db.query('INSERT INTO study_join (study_id, address) VALUES ($1, $2)', [studyId, address]);
}
