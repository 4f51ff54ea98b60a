import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimNext, renewLease, skipAssignment } from '../../lib/authoring/assignments';
import { createCampaign } from '../../lib/authoring/campaigns';
import { sampleSeeds } from '../../lib/authoring/seeds';
import { ownAssignment, visibleAssignment, visibleCampaign } from '../../lib/authoring/access';
import { createUser } from '../../lib/auth/users';
import { Role } from '../../lib/auth/roles';
import { db, openAppDatabase, pool } from '../support/app-database';
import { IBD_DIR, ibdIds, importIbd, readIbdEdges } from '../support/primekg-ibd';
import type { TestDatabase } from '../support/test-database';

let testDb: TestDatabase;
let kbId: number;
let annotators: number[];

beforeAll(async () => {
  testDb = await openAppDatabase();
  kbId = await importIbd(pool());
  annotators = [];
  for (let i = 0; i < 20; i++) annotators.push((await createUser(db(), { email: `annotator${i}@example.org`, password: 'a long password', role: Role.ANNOTATOR })).id);
});
afterAll(async () => testDb.drop());

describe('seed sampling', () => {
  it('draws random seeds reproducibly, of the chosen types, never isolated', async () => {
    const a = await sampleSeeds(pool(), kbId, { mode: 'random', count: 25, types: ['drug', 'disease'], seed: 7 });
    const again = await sampleSeeds(pool(), kbId, { mode: 'random', count: 25, types: ['drug', 'disease'], seed: 7 });
    const other = await sampleSeeds(pool(), kbId, { mode: 'random', count: 25, types: ['drug', 'disease'], seed: 8 });
    expect(a.entityIds).toHaveLength(25);
    expect(again.entityIds).toEqual(a.entityIds);
    expect(other.entityIds).not.toEqual(a.entityIds);
    const { rows } = await pool().query<{ type: string; degree: number }>(
      `SELECT t.name AS type, e.degree FROM entity e JOIN node_type t ON t.id = e.type_id WHERE e.kb_id = $1 AND e.id = ANY($2::int[])`, [kbId, a.entityIds]);
    expect(rows.every((r) => ['drug', 'disease'].includes(r.type) && r.degree >= 1)).toBe(true);
    await expect(sampleSeeds(pool(), kbId, { mode: 'random', count: 5, types: ['drug', 'planet'], seed: 7 })).rejects.toMatchObject({ status: 400, message: 'seeds.types: unknown entity type: planet' });
  });

  it('stratifies by type: min(perType, connected entities of the type) each, checked against the files', async () => {
    const degree = new Map<string, number>();
    for (const e of readIbdEdges()) for (const id of [e.source, e.target]) degree.set(id, (degree.get(id) ?? 0) + 1);
    const connectedPerType = new Map<string, number>();
    for (const line of fs.readFileSync(path.join(IBD_DIR, 'nodes.jsonl'), 'utf8').split('\n').filter(Boolean)) {
      const node = JSON.parse(line) as { node_index: number; node_type: string };
      if (degree.get(String(node.node_index))) connectedPerType.set(node.node_type, (connectedPerType.get(node.node_type) ?? 0) + 1);
    }
    const { entityIds } = await sampleSeeds(pool(), kbId, { mode: 'stratified', perType: 10, seed: 1 });
    const { rows } = await pool().query<{ type: string; n: number }>(
      `SELECT t.name AS type, count(*)::int AS n FROM entity e JOIN node_type t ON t.id = e.type_id WHERE e.kb_id = $1 AND e.id = ANY($2::int[]) GROUP BY t.name`, [kbId, entityIds]);
    expect(Object.fromEntries(rows.map((r) => [r.type, r.n]))).toEqual(Object.fromEntries([...connectedPerType].map(([t, n]) => [t, Math.min(10, n)])));
    expect(new Set(entityIds).size).toBe(entityIds.length);
  });

  it('reads an uploaded list, reporting unknown and repeated ids with their lines and sampling nothing then', async () => {
    const good = await sampleSeeds(pool(), kbId, { mode: 'list', text: '# seeds\n144\n\n179\n', file: 'seeds.txt' });
    const { externalOf } = await ibdIds(pool(), kbId);
    expect(good.entityIds.map((id) => externalOf.get(id))).toEqual(['144', '179']);
    const bad = await sampleSeeds(pool(), kbId, { mode: 'list', text: '144\nnope\n144\n', file: 'seeds.txt' });
    expect(bad.entityIds).toEqual([]);
    expect(bad.issues.map(String)).toEqual(['seeds.txt:2: no entity with the id "nope" in this knowledge base', 'seeds.txt:3: "144" is already listed at line 1']);
  });
});

describe('assignments: exactly k annotators per seed', () => {
  it('never gives a seed to more than k, however many annotators ask at once', async () => {
    const { id } = await createCampaign(pool(), kbId, { name: 'exact-k', guidelines: 'g', annotatorsPerSeed: 2, leaseMinutes: 60, leakPolicy: 'warn', querySet: 'exact-k-queries', annotatorIds: annotators, open: true },
      { mode: 'random', count: 6, seed: 3 }, null);
    // Every annotator asks twice at the same time; a live lease is handed back, not doubled.
    const claims = await Promise.all([...annotators, ...annotators].map((a) => claimNext(pool(), id, a)));
    const { rows } = await pool().query<{ entity_id: number; n: number; annotators: number }>(
      `SELECT entity_id, count(*)::int AS n, count(DISTINCT annotator_id)::int AS annotators FROM assignment WHERE campaign_id = $1 GROUP BY entity_id`, [id]);
    expect(rows).toHaveLength(6);
    expect(rows.every((r) => r.n === 2 && r.annotators === 2)).toBe(true);
    const holders = new Set(claims.filter((c) => c !== null).map((c) => c!.annotatorId));
    expect(holders.size).toBe(12);
    expect(claims.filter((c) => c === null)).toHaveLength(16);
  });

  it('puts a skipped or expired seed back in the pool, and refuses to renew an expired lease', async () => {
    const { id } = await createCampaign(pool(), kbId, { name: 'leases', guidelines: 'g', annotatorsPerSeed: 1, leaseMinutes: 60, leakPolicy: 'warn', querySet: 'leases-queries', annotatorIds: annotators.slice(0, 4), open: true },
      { mode: 'random', count: 1, seed: 4 }, null);
    const [a, b, c] = annotators;
    const first = (await claimNext(pool(), id, a!))!;
    expect(await claimNext(pool(), id, b!)).toBeNull();
    await expect(skipAssignment(pool(), first.id, a!, '  ')).rejects.toThrow(/say why/);
    await skipAssignment(pool(), first.id, a!, 'nothing to ask about');
    const second = (await claimNext(pool(), id, b!))!;
    expect(second.entityId).toBe(first.entityId);
    expect(await claimNext(pool(), id, a!)).toBeNull();

    await pool().query(`UPDATE assignment SET lease_expires_at = now() - interval '1 minute' WHERE id = $1`, [second.id]);
    await expect(renewLease(pool(), second.id, b!)).rejects.toThrow(/expired/);
    const third = (await claimNext(pool(), id, c!))!;
    expect(third.entityId).toBe(first.entityId);
    const { rows } = await pool().query<{ status: string }>('SELECT status FROM assignment WHERE id = $1', [second.id]);
    expect(rows[0]!.status).toBe('EXPIRED');
    await expect(renewLease(pool(), third.id, c!)).resolves.toBeTruthy();
  });

  it('refuses annotators who are not in the campaign', async () => {
    const { id } = await createCampaign(pool(), kbId, { name: 'members', guidelines: 'g', annotatorsPerSeed: 1, leaseMinutes: 60, leakPolicy: 'warn', querySet: 'members-queries', annotatorIds: annotators.slice(0, 1), open: true },
      { mode: 'random', count: 1, seed: 5 }, null);
    await expect(claimNext(pool(), id, annotators[1]!)).rejects.toThrow(/not an annotator of this campaign/);
  });

  it('refuses annotators who cannot see a private knowledge base, until they are members', async () => {
    await pool().query(`UPDATE knowledge_base SET visibility = 'PRIVATE' WHERE id = $1`, [kbId]);
    try {
      const input = { name: 'private', guidelines: 'g', annotatorsPerSeed: 1, leaseMinutes: 60, leakPolicy: 'warn', querySet: 'private-queries', annotatorIds: annotators.slice(0, 2), open: true } as const;
      await expect(createCampaign(pool(), kbId, input, { mode: 'random', count: 1, seed: 5 }, null))
        .rejects.toThrow('annotators: annotator0@example.org, annotator1@example.org cannot see this private knowledge base; make them members first');
      expect((await pool().query('SELECT 1 FROM campaign WHERE name = $1', ['private'])).rows).toEqual([]);
      await pool().query('INSERT INTO kb_member (kb_id, user_id) SELECT $1, u FROM unnest($2::int[]) u', [kbId, annotators.slice(0, 2)]);
      expect((await createCampaign(pool(), kbId, input, { mode: 'random', count: 1, seed: 5 }, null)).annotators).toBe(2);
    } finally {
      await pool().query(`UPDATE knowledge_base SET visibility = 'PUBLIC' WHERE id = $1`, [kbId]);
    }
  });

  it('shows a private knowledge base\'s campaign and assignments to admins and members only', async () => {
    const { id } = await createCampaign(pool(), kbId, { name: 'visibility', guidelines: 'g', annotatorsPerSeed: 1, leaseMinutes: 60, leakPolicy: 'warn', querySet: 'visibility-queries', annotatorIds: annotators.slice(5, 6), open: true },
      { mode: 'random', count: 1, seed: 9 }, null);
    const member = await createUser(db(), { email: 'member@example.org', password: 'a long password', role: Role.CURATOR });
    const outsider = await createUser(db(), { email: 'outsider@example.org', password: 'a long password', role: Role.CURATOR });
    const admin = await createUser(db(), { email: 'admin@example.org', password: 'a long password', role: Role.ADMIN });
    const annotator = await db().user.findUniqueOrThrow({ where: { id: annotators[5]! } });
    const assignment = (await claimNext(pool(), id, annotator.id))!;
    await pool().query(`UPDATE knowledge_base SET visibility = 'PRIVATE' WHERE id = $1`, [kbId]);
    try {
      await pool().query('INSERT INTO kb_member (kb_id, user_id) VALUES ($1, $2)', [kbId, member.id]);
      for (const who of [member, admin]) {
        expect(await visibleCampaign(who, id)).toEqual({ id, kbId });
        expect(await visibleAssignment(who, assignment.id)).toEqual({ id: assignment.id, campaignId: id });
      }
      await expect(visibleCampaign(outsider, id)).rejects.toThrow(`No campaign ${id}`);
      await expect(visibleAssignment(outsider, assignment.id)).rejects.toThrow(`No assignment ${assignment.id}`);
      // The annotator lost sight of the knowledge base: their own assignment is gone for them too.
      await expect(ownAssignment(annotator, assignment.id)).rejects.toThrow(`No assignment ${assignment.id} of yours`);
      await pool().query('INSERT INTO kb_member (kb_id, user_id) VALUES ($1, $2)', [kbId, annotator.id]);
      expect(await ownAssignment(annotator, assignment.id)).toEqual({ id: assignment.id, campaignId: id });
      await expect(ownAssignment(member, assignment.id)).rejects.toThrow('of yours');
      // A knowledge base that is loading is hidden from everyone, admins too.
      await pool().query(`UPDATE knowledge_base SET status = 'LOADING' WHERE id = $1`, [kbId]);
      await expect(visibleCampaign(admin, id)).rejects.toThrow(`No campaign ${id}`);
    } finally {
      await pool().query(`UPDATE knowledge_base SET visibility = 'PUBLIC', status = 'READY' WHERE id = $1`, [kbId]);
      await pool().query('DELETE FROM kb_member WHERE kb_id = $1 AND user_id = ANY($2::int[])', [kbId, [member.id, annotator.id]]);
    }
  });
});

describe('assignments: one live lease per annotator', () => {
  const campaign = (name: string, annotatorIds: number[], k: number, seeds: number) => createCampaign(pool(), kbId,
    { name, guidelines: 'g', annotatorsPerSeed: k, leaseMinutes: 60, leakPolicy: 'warn', querySet: `${name}-queries`, annotatorIds, open: true },
    { mode: 'random', count: seeds, seed: 11 }, null);
  const active = async (campaignId: number) => (await pool().query<{ id: number; annotator_id: number }>(
    `SELECT id, annotator_id FROM assignment WHERE campaign_id = $1 AND status = 'ACTIVE' ORDER BY id`, [campaignId])).rows;

  it('hands every parallel claim of one annotator the same lease (4 and 10 at once)', async () => {
    const annotator = annotators[6]!;
    for (const parallel of [4, 10]) {
      // Few seeds: a claim that doubled the lease would also find the pool empty and answer null.
      const { id } = await campaign(`one-lease-${parallel}`, [annotator], 1, 3);
      const claims = await Promise.all(Array.from({ length: parallel }, () => claimNext(pool(), id, annotator)));
      expect(claims.every((c) => c !== null)).toBe(true);
      expect(new Set(claims.map((c) => c!.id)).size).toBe(1);
      expect(await active(id)).toEqual([{ id: claims[0]!.id, annotator_id: annotator }]);
    }
  });

  it('keeps exactly k when the last seed is claimed in parallel by two annotators, each several times', async () => {
    const [a, b] = [annotators[7]!, annotators[8]!];
    const { id } = await campaign('last-seed', [a, b], 1, 1);
    const claims = await Promise.all([a, b, a, b, a, b].map((who) => claimNext(pool(), id, who)));
    const held = await active(id);
    expect(held).toHaveLength(1);
    const winner = held[0]!.annotator_id;
    claims.forEach((c, i) => expect(c?.id ?? null).toBe([a, b, a, b, a, b][i] === winner ? held[0]!.id : null));
  });

  it('refuses a second live lease in the database itself', async () => {
    const annotator = annotators[9]!;
    const { id } = await campaign('one-lease-db', [annotator], 1, 2);
    const first = (await claimNext(pool(), id, annotator))!;
    const { rows: [other] } = await pool().query<{ entity_id: number }>('SELECT entity_id FROM campaign_seed WHERE campaign_id = $1 AND entity_id <> $2', [id, first.entityId]);
    await expect(pool().query(`INSERT INTO assignment (campaign_id, entity_id, annotator_id, slot, lease_expires_at) VALUES ($1, $2, $3, 1, now() + interval '1 hour')`,
      [id, other!.entity_id, annotator])).rejects.toMatchObject({ code: '23505', constraint: 'assignment_one_live_lease_key' });
    // Once the lease has run out, the next claim marks it expired and leases the other seed.
    await pool().query(`UPDATE assignment SET lease_expires_at = now() - interval '1 minute' WHERE id = $1`, [first.id]);
    const next = (await claimNext(pool(), id, annotator))!;
    expect(next.entityId).toBe(other!.entity_id);
    expect(await active(id)).toEqual([{ id: next.id, annotator_id: annotator }]);
  });
});
