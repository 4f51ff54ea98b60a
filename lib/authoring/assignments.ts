import { badRequest, conflict, forbidden, notFound } from '../errors';
import { inTransaction, type Database, type Queryable } from '../db/transaction';
import type { CampaignKind } from './campaigns';
import { prefillValidationDraft } from './validation-campaign';

export interface AssignmentView {
  id: number;
  campaignId: number;
  entityId: number;
  annotatorId: number;
  slot: number;
  status: 'ACTIVE' | 'SUBMITTED' | 'RETURNED' | 'APPROVED' | 'SKIPPED' | 'EXPIRED';
  leaseExpiresAt: string;
}

/** The statuses that hold one of a seed's k slots. */
export const SLOT_HOLDING = ['ACTIVE', 'SUBMITTED', 'RETURNED', 'APPROVED'] as const;

const FIELDS = `id, campaign_id AS "campaignId", entity_id AS "entityId", annotator_id AS "annotatorId", slot, status, lease_expires_at AS "leaseExpiresAt"`;

/** Leases past their end stop counting: their seeds go back to the pool. */
export async function expireLeases(db: Queryable, campaignId: number): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE assignment SET status = 'EXPIRED' WHERE campaign_id = $1 AND status = 'ACTIVE' AND lease_expires_at < now()`, [campaignId]);
  return rowCount ?? 0;
}

/** Seeds of campaign $1 with a slot free for annotator $2 (k = $3) that they never had, in order, except those tried ($4). */
const FREE_SEEDS = `campaign_seed s
  WHERE s.campaign_id = $1 AND s.entity_id <> ALL($4::int[])
    AND NOT EXISTS (SELECT 1 FROM assignment a WHERE a.campaign_id = s.campaign_id AND a.entity_id = s.entity_id AND a.annotator_id = $2)
    AND (SELECT count(*) FROM assignment a WHERE a.campaign_id = s.campaign_id AND a.entity_id = s.entity_id
           AND a.status IN ('ACTIVE', 'SUBMITTED', 'RETURNED', 'APPROVED')) < $3
  ORDER BY s.position`;
const LOCKED_SEED_POLL_MS = 5;

/**
 * The annotator's next seed: their live lease if they have one, else a new lease on the first seed (in the
 * campaign's order) that has a free slot and that they have not had before; null when none is left.
 * One live lease per annotator: claims by the same annotator in the same campaign queue on their
 * campaign_annotator row, so a double click or a second tab waits for the first claim and gets its lease back;
 * a partial unique index refuses a second ACTIVE assignment whatever the code does.
 * Exactly k per seed under any concurrency: each claim locks the seed row (others skip it and try the next),
 * counts the slots anew under that lock and takes a free one; the partial unique index on held slots would
 * refuse a k+1-th holder even if that logic were wrong. "None left" (null) is only said when no seed has a free
 * slot, not while the free ones are locked by other claims.
 * A new lease in a validation campaign starts with the draft of the query it validates.
 */
export async function claimNext(db: Database, campaignId: number, annotatorId: number): Promise<AssignmentView | null> {
  return inTransaction(db, async (client) => {
    const { rows: [campaign] } = await client.query<{ status: string; k: number; lease: number }>(
      `SELECT c.status, c.annotators_per_seed AS k, c.lease_minutes AS lease
         FROM campaign_annotator m JOIN campaign c ON c.id = m.campaign_id
        WHERE m.campaign_id = $1 AND m.user_id = $2 FOR NO KEY UPDATE OF m`, [campaignId, annotatorId]);
    if (!campaign) {
      const { rows } = await client.query('SELECT 1 FROM campaign WHERE id = $1', [campaignId]);
      throw rows.length ? forbidden('You are not an annotator of this campaign') : notFound(`No campaign ${campaignId}`);
    }
    if (campaign.status !== 'OPEN') throw conflict(`The campaign is ${campaign.status.toLowerCase()}, not open`);
    await expireLeases(client, campaignId);
    const live = await client.query<AssignmentView>(
      `SELECT ${FIELDS} FROM assignment WHERE campaign_id = $1 AND annotator_id = $2 AND status = 'ACTIVE'`, [campaignId, annotatorId]);
    if (live.rows[0]) return live.rows[0];

    const tried: number[] = [];
    for (;;) {
      const { rows: [seed] } = await client.query<{ entity_id: number }>(
        `SELECT s.entity_id FROM ${FREE_SEEDS} FOR UPDATE OF s SKIP LOCKED LIMIT 1`, [campaignId, annotatorId, campaign.k, tried]);
      if (!seed) {
        // Every seed left may be locked by claims in flight that will not fill it: wait for them rather than
        // answer "none left" while slots are free. Waiting by polling, never on the lock, cannot deadlock.
        const { rows: [left] } = await client.query(`SELECT 1 FROM ${FREE_SEEDS} LIMIT 1`, [campaignId, annotatorId, campaign.k, tried]);
        if (!left) return null;
        await new Promise((resolve) => setTimeout(resolve, LOCKED_SEED_POLL_MS));
        continue;
      }
      // A new statement sees every claim committed before this lock was granted.
      const { rows: [free] } = await client.query<{ slot: number | null }>(
        `SELECT min(n) AS slot FROM generate_series(1, $3::int) n
          WHERE n NOT IN (SELECT slot FROM assignment WHERE campaign_id = $1 AND entity_id = $2 AND status IN ('ACTIVE', 'SUBMITTED', 'RETURNED', 'APPROVED'))`,
        [campaignId, seed.entity_id, campaign.k]);
      if (free?.slot == null) { tried.push(seed.entity_id); continue; }
      const { rows: [created] } = await client.query<AssignmentView>(
        `INSERT INTO assignment (campaign_id, entity_id, annotator_id, slot, lease_expires_at)
         VALUES ($1, $2, $3, $4, now() + make_interval(mins => $5)) RETURNING ${FIELDS}`,
        [campaignId, seed.entity_id, annotatorId, free.slot, campaign.lease]);
      await prefillValidationDraft(client, created!);
      return created!;
    }
  });
}

export interface LockedAssignment {
  campaign_id: number;
  entity_id: number;
  kb_id: number;
  lease_minutes: number;
  leak_policy: 'warn' | 'block';
  kind: CampaignKind;
}

/**
 * Locks the annotator's assignment for a change, which a live lease or a return from review allows: an
 * expired or finished assignment answers 409 saying why, another person's answers 404. Returned work keeps
 * its slot without a lease: the reviewer is waiting for it.
 */
export async function lockOwnActive(db: Queryable, assignmentId: number, annotatorId: number): Promise<LockedAssignment> {
  const { rows: [a] } = await db.query<LockedAssignment & { annotator_id: number; status: string; expired: boolean }>(
    `SELECT a.annotator_id, a.status, a.lease_expires_at < now() AS expired, a.campaign_id, a.entity_id, c.kb_id, c.lease_minutes, c.leak_policy, c.kind
       FROM assignment a JOIN campaign c ON c.id = a.campaign_id WHERE a.id = $1 FOR UPDATE OF a`, [assignmentId]);
  if (!a || a.annotator_id !== annotatorId) throw notFound(`No assignment ${assignmentId} of yours`);
  if (a.status === 'RETURNED') return a;
  if (a.status !== 'ACTIVE' || a.expired) {
    throw conflict(a.status === 'ACTIVE' || a.status === 'EXPIRED'
      ? 'This assignment expired: its lease ran out and the seed went back to the pool. Ask for a new seed.'
      : `This assignment is ${a.status.toLowerCase()}; it can no longer be changed`);
  }
  return a;
}

/**
 * An audit's work goes through its own steps (lib/authoring/audit-work.ts and audit-review.ts): the steps that
 * write a new query refuse its assignments (400, nothing written), or an audit could be handed in without every
 * answer judged and approved as a new query of the audited set, its item left without an outcome.
 */
export function refuseAudit(kind: CampaignKind, instead: string): void {
  if (kind === 'audit') throw badRequest(`This assignment is part of an audit campaign: ${instead}`);
}

/** Pushes a locked assignment's lease end a full lease length from now. */
export async function extendLease(db: Queryable, assignmentId: number, a: LockedAssignment): Promise<string> {
  const { rows } = await db.query<{ until: string }>(
    `UPDATE assignment SET lease_expires_at = now() + make_interval(mins => $2) WHERE id = $1 RETURNING lease_expires_at AS until`, [assignmentId, a.lease_minutes]);
  return rows[0]!.until;
}

/** Extends the lease while the annotator works (autosave does it too), so an open workspace keeps its seed. */
export async function renewLease(db: Database, assignmentId: number, annotatorId: number): Promise<string> {
  return inTransaction(db, async (client) => extendLease(client, assignmentId, await lockOwnActive(client, assignmentId, annotatorId)));
}

/** Gives the seed back with a reason; its slot is free for another annotator. */
export async function skipAssignment(db: Database, assignmentId: number, annotatorId: number, reason: string): Promise<void> {
  if (!reason.trim()) throw badRequest('reason: say why the seed is skipped');
  await inTransaction(db, async (client) => {
    await lockOwnActive(client, assignmentId, annotatorId);
    await client.query(`UPDATE assignment SET status = 'SKIPPED', skip_reason = $2 WHERE id = $1`, [assignmentId, reason.trim()]);
  });
}
