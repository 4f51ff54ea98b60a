import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimNext } from '../../lib/authoring/assignments';
import { candidates } from '../../lib/authoring/candidates';
import { createCampaign } from '../../lib/authoring/campaigns';
import { judge } from '../../lib/authoring/drafts';
import { createUser } from '../../lib/auth/users';
import { Role } from '../../lib/auth/roles';
import type { Metapath } from '../../lib/kb/metapath';
import { ensureIndex } from '../../lib/retrieval/bm25-index';
import { db, openAppDatabase, pool } from '../support/app-database';
import { ibdIds, importIbd, readIbdEdges } from '../support/primekg-ibd';
import type { TestDatabase } from '../support/test-database';

let testDb: TestDatabase;
let kbId: number;
let annotator: number;
let assignmentId: number;
let seed: number;
let ids: Awaited<ReturnType<typeof ibdIds>>;
// Fostamatinib (PrimeKG 15674), a drug with four targets in the fixture.
const SEED = '15674';

beforeAll(async () => {
  testDb = await openAppDatabase();
  kbId = await importIbd(pool());
  await ensureIndex(pool(), kbId, false);
  ids = await ibdIds(pool(), kbId);
  annotator = (await createUser(db(), { email: 'validator@example.org', password: 'a long password', role: Role.ANNOTATOR })).id;
  const { id } = await createCampaign(pool(), kbId, { name: 'candidates', guidelines: 'g', annotatorsPerSeed: 1, leaseMinutes: 60, leakPolicy: 'warn', querySet: 'candidates-queries', annotatorIds: [annotator], open: true },
    { mode: 'list', text: `${SEED}\n`, file: 'seeds.txt' }, null);
  const a = (await claimNext(pool(), id, annotator))!;
  assignmentId = a.id;
  seed = a.entityId;
});
afterAll(async () => testDb.drop());

describe('answer candidates', () => {
  it('are exactly the entities the relational requirement reaches, computed from the edge file', async () => {
    const edges = readIbdEdges();
    const targets = new Set(edges.filter((e) => e.source === SEED && e.relation === 'target' && e.targetType === 'gene/protein').map((e) => e.target));
    const expected = new Set(edges.filter((e) => targets.has(e.source) && e.relation === 'interacts with' && e.targetType === 'biological_process').map((e) => e.target));
    expect(targets.size).toBe(4);
    expect(expected.size).toBeGreaterThan(20);

    const paths: Metapath[] = [{ start: { entity: seed }, steps: [
      { relation: 'target', direction: 'out', targetType: 'gene/protein' },
      { relation: 'interacts with', direction: 'out', targetType: 'biological_process' },
    ] }];
    const seen: number[] = [];
    let ranks: number[] = [];
    for (let offset = 0; ; offset += 10) {
      const page = await candidates(pool(), assignmentId, annotator, { paths, queryText: 'Which processes involving inflammation and immune response?', limit: 10, offset });
      expect(page.total).toBe(expected.size);
      seen.push(...page.items.map((c) => c.id));
      ranks = ranks.concat(page.items.map((c) => c.score!));
      if (page.items.length < 10) break;
    }
    expect(new Set(seen.map((id) => ids.externalOf.get(id)))).toEqual(expected);
    expect(seen).toHaveLength(expected.size);
    // Ordered by BM25 over the query's words: scores never rise, and some candidates mention its words.
    expect(ranks.every((r, i) => i === 0 || r <= ranks[i - 1]!)).toBe(true);
    expect(ranks[0]).toBeGreaterThan(0);
  });

  it('carry the annotator\'s judgments and count them as progress', async () => {
    const paths: Metapath[] = [{ start: { entity: seed }, steps: [{ relation: 'target', direction: 'out', targetType: 'gene/protein' }] }];
    const before = await candidates(pool(), assignmentId, annotator, { paths, queryText: '', limit: 10, offset: 0 });
    expect([before.total, before.judged]).toEqual([4, 0]);
    const [first, second] = before.items;
    await judge(pool(), assignmentId, annotator, { entityId: first!.id, label: 'relevant', version: 0 });
    await judge(pool(), assignmentId, annotator, { entityId: second!.id, label: 'not_relevant', version: 0 });
    // A judgment of an entity outside the candidate set (added by hand) is not candidate progress.
    await judge(pool(), assignmentId, annotator, { entityId: ids.idOf.get('144')!, label: 'relevant', version: 0 });
    const after = await candidates(pool(), assignmentId, annotator, { paths, queryText: '', limit: 10, offset: 0 });
    expect(after.judged).toBe(2);
    expect(after.items.find((c) => c.id === first!.id)!.judgment).toEqual({ label: 'relevant', version: 1 });
    expect(after.items.find((c) => c.id === second!.id)!.judgment).toEqual({ label: 'not_relevant', version: 1 });
    await expect(candidates(pool(), assignmentId, annotator + 1, { paths, queryText: '', limit: 10, offset: 0 })).rejects.toThrow(/No assignment/);
  });

  it('leave the seed out: the query is about it, so it is an answer without judging', async () => {
    const edges = readIbdEdges();
    const targets = new Set(edges.filter((e) => e.source === SEED && e.relation === 'target').map((e) => e.target));
    const drugs = new Set(edges.filter((e) => targets.has(e.target) && e.relation === 'target' && e.sourceType === 'drug').map((e) => e.source));
    expect(drugs.has(SEED)).toBe(true);
    const paths: Metapath[] = [{ start: { entity: seed }, steps: [
      { relation: 'target', direction: 'out', targetType: 'gene/protein' },
      { relation: 'target', direction: 'in', targetType: 'drug' },
    ] }];
    const page = await candidates(pool(), assignmentId, annotator, { paths, queryText: '', limit: 500, offset: 0 });
    expect(page.total).toBe(drugs.size - 1);
    expect(new Set(page.items.map((c) => ids.externalOf.get(c.id)))).toEqual(new Set([...drugs].filter((d) => d !== SEED)));
  });
});
