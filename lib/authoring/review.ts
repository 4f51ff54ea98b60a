import { badRequest, conflict, forbidden, notFound } from '../errors';
import { auditSql, inTransaction, type Database, type Queryable } from '../db/transaction';
import { refuseAudit } from './assignments';
import type { CampaignKind } from './campaigns';
import { storedDifficulty } from './difficulty';

export interface SubmittedWork {
  assignmentId: number;
  annotatorId: number;
  annotator: string;
  text: string;
  requirement: unknown;
  textSpans: unknown[];
  submittedAt: string;
  /** Candidates left unsure (submitted as not answers). */
  unsure: number;
  /** Entities judged relevant, with their evidence (the seed is always an answer too). */
  relevant: { entityId: number; evidence: unknown[] }[];
}

/** Every submitted assignment of a seed in a campaign: the queries and answer sets a reviewer compares. */
export async function submittedForSeed(db: Queryable, campaignId: number, entityId: number): Promise<SubmittedWork[]> {
  const { rows } = await db.query<SubmittedWork>(
    `SELECT a.id AS "assignmentId", a.annotator_id AS "annotatorId", coalesce(u.name, u.email) AS annotator, d.text,
            d.requirement, d.text_spans AS "textSpans", a.submitted_at AS "submittedAt",
            (SELECT count(*)::int FROM judgment j WHERE j.assignment_id = a.id AND j.label = 'unsure') AS unsure,
            coalesce((SELECT json_agg(json_build_object('entityId', j.entity_id, 'evidence', j.evidence) ORDER BY j.entity_id)
                        FROM judgment j WHERE j.assignment_id = a.id AND j.label = 'relevant'), '[]') AS relevant
       FROM assignment a JOIN app_user u ON u.id = a.annotator_id JOIN query_draft d ON d.assignment_id = a.id
      WHERE a.campaign_id = $1 AND a.entity_id = $2 AND a.status = 'SUBMITTED' ORDER BY a.id`, [campaignId, entityId]);
  return rows;
}

export interface ReviewQueueItem {
  entityId: number;
  externalId: string;
  name: string;
  type: string;
  submitted: number;
  approved: number;
}

/** Seeds with submitted work waiting for review, in campaign order. */
export async function reviewQueue(db: Queryable, campaignId: number): Promise<ReviewQueueItem[]> {
  const { rows } = await db.query<ReviewQueueItem>(
    `SELECT s.entity_id AS "entityId", e.external_id AS "externalId", e.name, t.name AS type,
            count(*) FILTER (WHERE a.status = 'SUBMITTED')::int AS submitted, count(*) FILTER (WHERE a.status = 'APPROVED')::int AS approved
       FROM campaign_seed s JOIN campaign c ON c.id = s.campaign_id
       JOIN entity e ON e.kb_id = c.kb_id AND e.id = s.entity_id JOIN node_type t ON t.id = e.type_id
       JOIN assignment a ON a.campaign_id = s.campaign_id AND a.entity_id = s.entity_id
      WHERE s.campaign_id = $1
      GROUP BY s.entity_id, s.position, e.external_id, e.name, t.name
     HAVING count(*) FILTER (WHERE a.status = 'SUBMITTED') > 0
      ORDER BY s.position`, [campaignId]);
  return rows;
}

export interface ChosenEntity {
  entityId: number;
  externalId: string;
  name: string;
  type: string;
  /** The annotators (ids) who judged it relevant. */
  chosenBy: number[];
  /** Chosen by every annotator whose work is shown: the intersection. */
  inAll: boolean;
}

export interface SeedReview {
  seed: { id: number; externalId: string; name: string; type: string };
  querySet: string | null;
  /** Authoring campaigns: the seed is always an answer. Validation campaigns: it is an answer only when judged so. */
  seedIsAnswer: boolean;
  work: SubmittedWork[];
  /** The union of the annotators' answers (the seed left out when it is always an answer). */
  entities: ChosenEntity[];
}

/** What a reviewer adjudicates for one seed: each submitted work side by side and the union of their answers. */
export async function seedReview(db: Queryable, campaignId: number, entityId: number): Promise<SeedReview> {
  const { rows: [seed] } = await db.query<SeedReview['seed'] & { querySet: string | null; kbId: number; seedIsAnswer: boolean }>(
    `SELECT e.id, e.external_id AS "externalId", e.name, t.name AS type, q.name AS "querySet", c.kb_id AS "kbId", c.kind = 'authoring' AS "seedIsAnswer"
       FROM campaign_seed s JOIN campaign c ON c.id = s.campaign_id LEFT JOIN query_set q ON q.id = c.query_set_id
       JOIN entity e ON e.kb_id = c.kb_id AND e.id = s.entity_id JOIN node_type t ON t.id = e.type_id
      WHERE s.campaign_id = $1 AND s.entity_id = $2`, [campaignId, entityId]);
  if (!seed) throw notFound(`Entity ${entityId} is not a seed of campaign ${campaignId}`);
  const work = await submittedForSeed(db, campaignId, entityId);
  const chosenBy = new Map<number, number[]>();
  for (const w of work) {
    for (const r of w.relevant) if (!seed.seedIsAnswer || r.entityId !== entityId) chosenBy.set(r.entityId, [...(chosenBy.get(r.entityId) ?? []), w.annotatorId]);
  }
  const { rows: named } = await db.query<{ entityId: number; externalId: string; name: string; type: string }>(
    `SELECT e.id AS "entityId", e.external_id AS "externalId", e.name, t.name AS type
       FROM entity e JOIN node_type t ON t.id = e.type_id WHERE e.kb_id = $1 AND e.id = ANY($2::int[]) ORDER BY e.name, e.id`,
    [seed.kbId, [...chosenBy.keys()]]);
  const { kbId: _kb, querySet, seedIsAnswer, ...seedFields } = seed;
  return {
    seed: seedFields,
    querySet,
    seedIsAnswer,
    work,
    entities: named.map((e) => ({ ...e, chosenBy: chosenBy.get(e.entityId)!, inAll: chosenBy.get(e.entityId)!.length === work.length })),
  };
}

/** Locks a submitted assignment for a review decision, which its own author may not make. */
export async function lockForReview(client: Queryable, assignmentId: number, reviewerId: number) {
  const { rows: [a] } = await client.query<{ campaign_id: number; entity_id: number; annotator_id: number; status: string; kb_id: number; query_set_id: number | null; name: string; kind: CampaignKind }>(
    `SELECT a.campaign_id, a.entity_id, a.annotator_id, a.status, c.kb_id, c.query_set_id, c.name, c.kind
       FROM assignment a JOIN campaign c ON c.id = a.campaign_id WHERE a.id = $1 FOR UPDATE OF a`, [assignmentId]);
  if (!a) throw notFound(`No assignment ${assignmentId}`);
  if (a.annotator_id === reviewerId) throw forbidden('You cannot review your own work; another reviewer must');
  if (a.status !== 'SUBMITTED') throw conflict(`Assignment ${assignmentId} is ${a.status.toLowerCase()}, not submitted`);
  return a;
}

/**
 * Sends submitted work back to its author with a note saying what to change. It keeps its slot and is
 * editable again; the author submits it anew.
 */
export async function returnAssignment(db: Database, assignmentId: number, reviewerId: number, note: string): Promise<void> {
  if (!note.trim()) throw badRequest('note: say what the author should change');
  await inTransaction(db, async (client) => {
    const a = await lockForReview(client, assignmentId, reviewerId);
    await client.query(`UPDATE assignment SET status = 'RETURNED', review_note = $2, reviewed_by = $3, reviewed_at = now() WHERE id = $1`, [assignmentId, note.trim(), reviewerId]);
    await auditSql(client, { userId: reviewerId, action: 'assignment.return', targetType: 'assignment', targetId: assignmentId, kbId: a.kb_id, details: { note: note.trim() } });
  });
}

export interface Decision {
  entityId: number;
  accept: boolean;
  reason?: string;
}

/**
 * Approves a submitted query into the campaign's query set. The reviewer decides on every entity any
 * annotator of the seed chose (the union); the accepted ones, with the seed in an authoring campaign, are the answer set, and each
 * answer records which annotators chose it and the reviewer's decision. A reviewer cannot approve their own
 * work, and every entity of the union needs a decision. The seed's other submitted work, adjudicated with
 * it, is marked approved too.
 */
export async function approveQuery(db: Database, assignmentId: number, reviewerId: number, opts: { decisions: Decision[]; text?: string }): Promise<{ queryId: string; answers: string[] }> {
  return inTransaction(db, async (client) => {
    const a = await lockForReview(client, assignmentId, reviewerId);
    refuseAudit(a.kind, 'approve it as an audit (POST /api/assignments/:id/audit/approve)');
    if (!a.query_set_id) throw conflict('The campaign has no query set to approve into');
    const work = await submittedForSeed(client, a.campaign_id, a.entity_id);
    const chosenBy = new Map<number, string[]>();
    for (const w of work) for (const r of w.relevant) chosenBy.set(r.entityId, [...(chosenBy.get(r.entityId) ?? []), w.annotator]);
    const seedIsAnswer = a.kind === 'authoring';
    if (seedIsAnswer) chosenBy.delete(a.entity_id);
    const decided = new Map(opts.decisions.map((d) => [d.entityId, d]));
    const undecided = [...chosenBy.keys()].filter((id) => !decided.has(id));
    if (undecided.length) throw badRequest(`decisions: decide on every entity an annotator chose; missing ${undecided.join(', ')}`);
    const rejectedWithoutReason = opts.decisions.filter((d) => !d.accept && !d.reason?.trim());
    if (rejectedWithoutReason.length) throw badRequest(`decisions: give a reason for rejecting ${rejectedWithoutReason.map((d) => d.entityId).join(', ')}`);
    const own = work.find((w) => w.assignmentId === assignmentId)!;
    const text = (opts.text ?? own.text).trim();
    if (!text) throw badRequest('text: the query is empty');

    const acceptedByReviewer = opts.decisions.filter((d) => d.accept && (!seedIsAnswer || d.entityId !== a.entity_id)).map((d) => d.entityId);
    const accepted = seedIsAnswer ? [a.entity_id, ...acceptedByReviewer] : acceptedByReviewer;
    if (!accepted.length) throw badRequest('decisions: accept at least one answer, or return the work');
    const mentioned = [...new Set([...accepted, ...opts.decisions.map((d) => d.entityId)])];
    const { rows: ext } = await client.query<{ id: number; external_id: string }>(
      'SELECT id, external_id FROM entity WHERE kb_id = $1 AND id = ANY($2::int[])', [a.kb_id, [a.entity_id, ...mentioned]]);
    const externalOf = new Map(ext.map((e) => [e.id, e.external_id]));
    const missing = accepted.filter((id) => !externalOf.has(id));
    if (missing.length) throw badRequest(`decisions: ${missing.join(', ')} not in the knowledge base`);
    const provenance = mentioned.map((id) => ({
      entity: externalOf.get(id) ?? String(id),
      chosenBy: seedIsAnswer && id === a.entity_id ? ['seed'] : chosenBy.get(id) ?? [],
      decision: (seedIsAnswer && id === a.entity_id) || decided.get(id)?.accept ? 'accepted' : 'rejected',
      ...(decided.get(id)?.reason ? { reason: decided.get(id)!.reason } : {}),
    }));
    // Queries written in a campaign are numbered on from the set's largest integer id.
    const { rows: [next] } = await client.query<{ id: string; position: number }>(
      `SELECT (coalesce(max(external_id::bigint) FILTER (WHERE external_id ~ '^[0-9]{1,18}$'), -1) + 1)::text AS id,
              coalesce(max(position), -1) + 1 AS position FROM query WHERE set_id = $1`, [a.query_set_id]);
    const answers = accepted.map((id) => externalOf.get(id)!);
    // Where BM25 ranks the approved query's seed and answers (left out when the knowledge base has no index).
    const difficulty = await storedDifficulty(client, a.kb_id, text, a.entity_id,
      accepted.filter((id) => id !== a.entity_id).map((id) => ({ entityId: id, externalId: externalOf.get(id)! })));
    // A validated query names the query it came from, and keeps that query's seeds (one per template branch).
    const { rows: [source] } = await client.query<{ querySet: string; query: string; seedIds: string[] }>(
      `SELECT qs.name AS "querySet", q.external_id AS query, q.seed_ids AS "seedIds"
         FROM campaign_seed s JOIN query q ON q.id = s.query_id JOIN query_set qs ON qs.id = q.set_id
        WHERE s.campaign_id = $1 AND s.entity_id = $2`, [a.campaign_id, a.entity_id]);
    // The requirements the author recorded travel with the query (JSONL exports carry the metadata).
    const metadata = {
      campaign: a.name, assignment: assignmentId, author: own.annotator, reviewer: reviewerId, answerProvenance: provenance,
      relationalRequirement: await withExternalStarts(client, a.kb_id, own.requirement), textualRequirements: own.textSpans,
      ...(difficulty ? { difficulty } : {}),
      ...(source ? { validatedFrom: { querySet: source.querySet, query: source.query } } : {}),
    };
    const { rows: [q] } = await client.query<{ id: number }>(
      `INSERT INTO query (set_id, external_id, position, text, answer_ids, seed_ids, metadata) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [a.query_set_id, next!.id, next!.position, text, answers, source?.seedIds ?? [externalOf.get(a.entity_id)!], JSON.stringify(metadata)]);
    await client.query(
      `INSERT INTO query_revision (query_id, version, text, answer_ids, seed_ids, split, metadata, reason, changed_by)
       SELECT id, 1, text, answer_ids, seed_ids, split, metadata, $2, $3 FROM query WHERE id = $1`, [q!.id, `approved in campaign ${a.name}`, reviewerId]);
    await client.query(`UPDATE assignment SET status = 'APPROVED', reviewed_by = $2, reviewed_at = now() WHERE id = $1`, [assignmentId, reviewerId]);
    // The other submitted work of the seed was adjudicated with it: the seed's review is done.
    await client.query(
      `UPDATE assignment SET status = 'APPROVED', reviewed_by = $3, reviewed_at = now(), review_note = $4
        WHERE campaign_id = $1 AND entity_id = $2 AND status = 'SUBMITTED'`, [a.campaign_id, a.entity_id, reviewerId, `adjudicated into query ${next!.id}`]);
    await auditSql(client, { userId: reviewerId, action: 'assignment.approve', targetType: 'assignment', targetId: assignmentId, kbId: a.kb_id, details: { query: next!.id, answers: answers.length } });
    return { queryId: next!.id, answers };
  });
}

type StoredRequirement = { paths: { start: { entity: number } | { type: string }; steps: unknown[] }[] } | null;

/**
 * The requirement as exported: a path starting at an entity names it by its external id, as answer ids do,
 * since internal ids mean nothing outside this database.
 */
async function withExternalStarts(client: Queryable, kbId: number, requirement: unknown) {
  const req = requirement as StoredRequirement;
  if (!req?.paths) return null;
  const ids = req.paths.flatMap((p) => ('entity' in p.start ? [p.start.entity] : []));
  const { rows } = await client.query<{ id: number; external_id: string }>('SELECT id, external_id FROM entity WHERE kb_id = $1 AND id = ANY($2::int[])', [kbId, ids]);
  const external = new Map(rows.map((r) => [r.id, r.external_id]));
  return { paths: req.paths.map((p) => ('entity' in p.start ? { ...p, start: { externalId: external.get(p.start.entity) ?? String(p.start.entity) } } : p)) };
}
