import type { Queryable } from '../db/transaction';
import type { ChatMessage, LlmFailureReason } from './types';

/** One row of llm_call: a logical call (all its attempts) as made. */
export interface StoredLlmCall {
  id: number;
  kbId: number | null;
  jobId: number | null;
  studyId: number | null;
  purpose: string;
  itemKey: string | null;
  model: string;
  baseUrlHost: string;
  promptId: string;
  promptVersion: number;
  messages: ChatMessage[];
  response: string | null;
  status: 'ok' | LlmFailureReason;
  httpStatus: number | null;
  error: string | null;
  attempts: number;
  /** As the endpoint reported them; null when it reported no usage (totalTokens is then an estimate). */
  promptTokens: number | null;
  completionTokens: number | null;
  totalTokens: number;
  latencyMs: number;
  createdAt: string;
}

export type NewLlmCall = Omit<StoredLlmCall, 'id' | 'createdAt'> & { requestHash: string };

/** What is kept of a message or a response: longer texts are cut here and the row's error says so. */
export const STORED_TEXT_CHARS = 200_000;

const cut = (text: string) => text.slice(0, STORED_TEXT_CHARS);

/** Stores a call, cutting texts over STORED_TEXT_CHARS (and noting it in `error`); returns its id. */
export async function recordLlmCall(db: Queryable, call: NewLlmCall): Promise<number> {
  const notes: string[] = call.error ? [call.error] : [];
  if (call.response !== null && call.response.length > STORED_TEXT_CHARS) {
    notes.push(`The response (${call.response.length.toLocaleString('en')} characters) is stored cut to its first ${STORED_TEXT_CHARS.toLocaleString('en')}`);
  }
  if (call.messages.some((m) => m.content.length > STORED_TEXT_CHARS)) {
    notes.push(`Messages over ${STORED_TEXT_CHARS.toLocaleString('en')} characters are stored cut`);
  }
  const { rows: [row] } = await db.query<{ id: number }>(
    `INSERT INTO llm_call (kb_id, job_id, study_id, purpose, item_key, request_hash, model, base_url_host, prompt_id, prompt_version,
       messages, response, status, http_status, error, attempts, prompt_tokens, completion_tokens, total_tokens, latency_ms)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20) RETURNING id`,
    [call.kbId, call.jobId, call.studyId, call.purpose, call.itemKey, call.requestHash, call.model, call.baseUrlHost, call.promptId,
      call.promptVersion, JSON.stringify(call.messages.map((m) => ({ role: m.role, content: cut(m.content) }))),
      call.response === null ? null : cut(call.response), call.status, call.httpStatus, notes.length ? notes.join('. ') : null,
      call.attempts, call.promptTokens, call.completionTokens, call.totalTokens, call.latencyMs]);
  return row!.id;
}

/**
 * The latest successful call of a job or study for the same unit of work and the same request, which a
 * resumed run reuses instead of asking again; null when there is none.
 */
export async function findReusableCall(db: Queryable, key: { jobId: number | null; studyId: number | null; itemKey: string; requestHash: string }): Promise<{ id: number; response: string } | null> {
  const owner = key.jobId !== null ? 'job_id' : 'study_id';
  const { rows: [row] } = await db.query<{ id: number; response: string }>(
    `SELECT id, response FROM llm_call
      WHERE ${owner} = $1 AND item_key = $2 AND request_hash = $3 AND status = 'ok' AND response IS NOT NULL
      ORDER BY id DESC LIMIT 1`, [key.jobId ?? key.studyId, key.itemKey, key.requestHash]);
  return row ?? null;
}

const COLUMNS = `id, kb_id AS "kbId", job_id AS "jobId", study_id AS "studyId", purpose, item_key AS "itemKey", model,
  base_url_host AS "baseUrlHost", prompt_id AS "promptId", prompt_version AS "promptVersion", messages, response, status,
  http_status AS "httpStatus", error, attempts, prompt_tokens AS "promptTokens", completion_tokens AS "completionTokens",
  total_tokens AS "totalTokens", latency_ms AS "latencyMs", created_at AS "createdAt"`;

type Row = Omit<StoredLlmCall, 'createdAt'> & { createdAt: Date | string };
const toCall = (row: Row): StoredLlmCall => ({ ...row, createdAt: new Date(row.createdAt).toISOString() });

export async function getLlmCall(db: Queryable, id: number): Promise<StoredLlmCall | null> {
  const { rows: [row] } = await db.query<Row>(`SELECT ${COLUMNS} FROM llm_call WHERE id = $1`, [id]);
  return row ? toCall(row) : null;
}

/** A knowledge base's calls, newest first, optionally those of one job or one study. */
export async function listLlmCalls(db: Queryable, filter: { kbId: number; jobId?: number; studyId?: number; limit: number; offset: number }): Promise<{ total: number; items: StoredLlmCall[] }> {
  const where = ['kb_id = $1'];
  const params: unknown[] = [filter.kbId];
  if (filter.jobId !== undefined) where.push(`job_id = $${params.push(filter.jobId)}`);
  if (filter.studyId !== undefined) where.push(`study_id = $${params.push(filter.studyId)}`);
  const condition = where.join(' AND ');
  const { rows: [count] } = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM llm_call WHERE ${condition}`, params);
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM llm_call WHERE ${condition} ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, filter.limit, filter.offset]);
  return { total: count!.total, items: rows.map(toCall) };
}
