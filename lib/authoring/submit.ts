import { badRequest } from '../errors';
import { auditSql, inTransaction, type Database } from '../db/transaction';
import { lockOwnActive, refuseAudit } from './assignments';
import { seedNames } from './drafts';
import { findLeaks } from './leak';

export interface Submission {
  assignmentId: number;
  text: string;
  /** The validated answers: every entity judged relevant and, in an authoring campaign, the seed (internal ids). */
  answers: number[];
  /** Candidates still marked unsure; submitted as not answers, listed for the reviewer. */
  unsure: number;
}

/**
 * Hands the assignment in for review. Refused with the reason (400, nothing changed) when the query is
 * empty, when it names the seed and the campaign blocks leaks, or when the draft the annotator saw is not the
 * last saved one (`draftVersion`). In an authoring campaign the seed always counts as an answer: the query
 * was written about it. In a validation campaign the seed is where the query starts, so only judgments count,
 * and at least one entity must be judged relevant.
 */
export async function submitAssignment(db: Database, assignmentId: number, annotatorId: number, draftVersion: number): Promise<Submission> {
  return inTransaction(db, async (client) => {
    const a = await lockOwnActive(client, assignmentId, annotatorId);
    refuseAudit(a.kind, 'submit it as an audit (POST /api/assignments/:id/audit/submit)');
    const { rows: [draft] } = await client.query<{ text: string; version: number }>('SELECT text, version FROM query_draft WHERE assignment_id = $1', [assignmentId]);
    if (!draft || !draft.text.trim()) throw badRequest('text: the query is empty; write it before submitting');
    if (draft.version !== draftVersion) throw badRequest(`The draft was saved elsewhere (version ${draft.version}; you submitted version ${draftVersion}). Reload it and submit again.`);
    const leaks = findLeaks(draft.text, await seedNames(client, a.kb_id, a.entity_id));
    if (leaks.length && a.leak_policy === 'block') throw badRequest(`text: the query names the seed ("${draft.text.slice(leaks[0]!.start, leaks[0]!.end)}"); this campaign does not accept that`);
    const { rows } = await client.query<{ entity_id: number; label: string }>('SELECT entity_id, label FROM judgment WHERE assignment_id = $1', [assignmentId]);
    const judged = rows.filter((j) => j.label === 'relevant' && j.entity_id !== a.entity_id).map((j) => j.entity_id);
    const answers = a.kind === 'authoring' ? [a.entity_id, ...judged] : rows.filter((j) => j.label === 'relevant').map((j) => j.entity_id);
    if (!answers.length) throw badRequest('answers: judge at least one entity relevant, or skip the query if it has no answer');
    await client.query(`UPDATE assignment SET status = 'SUBMITTED', submitted_at = now() WHERE id = $1`, [assignmentId]);
    await auditSql(client, { userId: annotatorId, action: 'assignment.submit', targetType: 'assignment', targetId: assignmentId, kbId: a.kb_id, details: { answers: answers.length, leaks: leaks.length } });
    return { assignmentId, text: draft.text, answers, unsure: rows.filter((j) => j.label === 'unsure').length };
  });
}
