import { notFound } from '../errors';
import type { Database } from '../db/transaction';
import { evaluateMetapaths, type Metapath, type ReachableEntity } from '../kb/metapath';
import type { JudgmentLabel } from './drafts';

export interface Candidate extends ReachableEntity {
  /** The annotator's judgment so far, with its version for the next change. */
  judgment: { label: JudgmentLabel; version: number } | null;
}

export interface CandidatePage {
  /** Every entity that satisfies the relational requirement, but the seed of an authoring campaign. */
  total: number;
  /** Of those, how many the annotator has judged. */
  judged: number;
  items: Candidate[];
}

/**
 * The exact candidate set of an assignment's relational requirement (one metapath, or several meeting at
 * one type), ordered by relevance to the query text, a page at a time, each with the annotator's judgment.
 * In an authoring campaign the seed is left out: the query is about it, so it is an answer without judging.
 */
export async function candidates(db: Database, assignmentId: number, annotatorId: number, opts: { paths: Metapath[]; queryText: string; limit: number; offset: number }): Promise<CandidatePage> {
  const { rows: [a] } = await db.query<{ kb_id: number; entity_id: number; kind: 'authoring' | 'validation' }>(
    `SELECT c.kb_id, a.entity_id, c.kind FROM assignment a JOIN campaign c ON c.id = a.campaign_id WHERE a.id = $1 AND a.annotator_id = $2`, [assignmentId, annotatorId]);
  if (!a) throw notFound(`No assignment ${assignmentId} of yours`);
  const judged = await db.query<{ entity_id: number; label: JudgmentLabel; version: number }>(
    'SELECT entity_id, label, version FROM judgment WHERE assignment_id = $1', [assignmentId]);
  const byEntity = new Map(judged.rows.map((j) => [j.entity_id, { label: j.label, version: j.version }]));
  const seed = a.kind === 'authoring' ? [a.entity_id] : [];
  const result = await evaluateMetapaths(db, a.kb_id, opts.paths, {
    limit: opts.limit, offset: opts.offset, relevance: opts.queryText || undefined, exclude: seed,
    countAmong: [...byEntity.keys()].filter((id) => !seed.includes(id)),
  }, 'requirement.paths');
  return {
    total: result.total,
    judged: result.among ?? 0,
    items: result.items.map((it) => ({ ...it, judgment: byEntity.get(it.id) ?? null })),
  };
}
