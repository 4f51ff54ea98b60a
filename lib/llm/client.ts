import crypto from 'node:crypto';
import type { Queryable } from '../db/transaction';
import { parseAnswer } from './answer';
import { findReusableCall, recordLlmCall, type NewLlmCall } from './calls';
import type { ChatMessage, LlmConfig, LlmFailureReason, LlmRequest, LlmResult } from './types';

export interface LlmClientOptions {
  /** Tokens this client may use: once used up, calls fail with 'budget' without a request. */
  tokenBudget?: number;
  /** For tests: the HTTP client. */
  fetch?: typeof fetch;
}

const DEFAULT_MAX_TOKENS = 1024;
/** Backoff before retry n (1-based): BACKOFF_MS * 2^(n-1), at most MAX_BACKOFF_MS, less up to half at random. */
const BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;
/** A Retry-After longer than this is cut to it: a job should fail over, not sleep for an hour. */
const MAX_RETRY_AFTER_MS = 60_000;
/** A response body larger than this is not read on: no chat answer needs it. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** What an error message keeps of an endpoint's error body. */
const ERROR_BODY_CHARS = 500;

/** The sha-256 of what decides the answer: the model, the messages and the sampling parameters. */
export function requestHash(body: { model: string; messages: ChatMessage[]; temperature: number; max_tokens: number }): string {
  const canonical = JSON.stringify([body.model, body.messages.map((m) => [m.role, m.content]), body.temperature, body.max_tokens]);
  return crypto.createHash('sha256').update(canonical).digest('hex');
}

/** Seconds or an HTTP date, in ms from now, capped; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const text = header.trim();
  const ms = /^\d+(\.\d+)?$/.test(text) ? Number(text) * 1000 : Date.parse(text) - now;
  if (Number.isNaN(ms)) return null;
  return Math.min(Math.max(0, Math.ceil(ms)), MAX_RETRY_AFTER_MS);
}

/** Roughly four characters a token: what a call is counted at when the endpoint reports no usage. */
export const estimateTokens = (chars: number): number => Math.ceil(chars / 4);

/** How one attempt ended. */
type Attempt =
  | { kind: 'answer'; httpStatus: number; body: string }
  | { kind: 'fail'; reason: LlmFailureReason; httpStatus: number | null; message: string; body: string | null; retryAfterMs: number | null; retriable: boolean };

/** What the whole call came to, before it is stored. */
interface Outcome {
  status: 'ok' | LlmFailureReason;
  message: string;
  httpStatus: number | null;
  response: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
  totalTokens: number;
  value?: unknown;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * An OpenAI-compatible chat-completions client. Each call waits for one of `concurrency` slots (first come,
 * first served), retries 429s, 5xx, timeouts and network errors with exponential backoff (honouring
 * Retry-After), checks the answer's JSON against the request's schema and stores the call with its attempts.
 * Endpoint faults come back as failures, never as exceptions.
 */
export class LlmClient {
  private readonly fetchFn: typeof fetch;
  private readonly tokenBudget: number;
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  private used = 0;
  private calls = 0;
  private failures = 0;

  constructor(private readonly db: Queryable, private readonly config: Pick<LlmConfig, 'concurrency' | 'timeoutMs' | 'maxRetries'>, opts: LlmClientOptions = {}) {
    if (!Number.isInteger(config.concurrency) || config.concurrency < 1) throw new Error(`LLM concurrency must be a whole number of at least 1, not ${config.concurrency}`);
    this.fetchFn = opts.fetch ?? fetch;
    this.tokenBudget = opts.tokenBudget ?? Infinity;
  }

  /** Tokens used by this client's calls (reused calls are free). */
  get tokensUsed(): number { return this.used; }
  /** Calls made and stored by this client, failures included; reused calls are not counted. */
  get callCount(): number { return this.calls; }
  get failureCount(): number { return this.failures; }

  async call<T>(req: LlmRequest<T>): Promise<LlmResult<T>> {
    const body = { model: req.endpoint.model, messages: req.prompt.messages, temperature: req.temperature ?? 0, max_tokens: req.maxTokens ?? DEFAULT_MAX_TOKENS };
    const hash = requestHash(body);
    const reused = await this.reuse(req, hash);
    if (reused) return reused;

    await this.acquire();
    const started = Date.now();
    let outcome: Outcome;
    let attempts = 0;
    try {
      if (this.used >= this.tokenBudget) {
        outcome = failure('budget', `The token budget of ${this.tokenBudget.toLocaleString('en')} is used up (${this.used.toLocaleString('en')} used)`);
      } else {
        ({ outcome, attempts } = await this.attempt(req, body));
      }
    } finally {
      this.release();
    }
    if (outcome.status === 'ok') {
      const checked = parseAnswer(outcome.response!, req.schema);
      outcome = checked.ok ? { ...outcome, value: checked.value } : { ...outcome, status: 'malformed', message: checked.message };
    }

    this.used += outcome.totalTokens;
    this.calls++;
    if (outcome.status !== 'ok') this.failures++;
    const callId = await recordLlmCall(this.db, this.row(req, hash, outcome, attempts, Date.now() - started));
    return outcome.status === 'ok'
      ? { ok: true, value: outcome.value as T, callId, tokens: outcome.totalTokens, reused: false }
      : { ok: false, reason: outcome.status, message: outcome.message, callId, tokens: outcome.totalTokens };
  }

  /** A stored successful call of the same job or study, unit of work and request, still matching the schema. */
  private async reuse<T>(req: LlmRequest<T>, hash: string): Promise<LlmResult<T> | null> {
    const { jobId = null, studyId = null, itemKey } = req.context;
    if ((jobId === null && studyId === null) || !itemKey) return null;
    const stored = await findReusableCall(this.db, { jobId, studyId, itemKey, requestHash: hash });
    if (!stored) return null;
    const checked = parseAnswer(stored.response, req.schema);
    return checked.ok ? { ok: true, value: checked.value, callId: stored.id, tokens: 0, reused: true } : null;
  }

  /** The attempts of one call, retried while they fail in a way that may pass. */
  private async attempt<T>(req: LlmRequest<T>, body: object): Promise<{ outcome: Outcome; attempts: number }> {
    const promptChars = req.prompt.messages.reduce((n, m) => n + m.content.length, 0);
    for (let n = 1; ; n++) {
      const result = await this.send(req, body);
      if (result.kind === 'answer') return { outcome: readCompletion(result.httpStatus, result.body, promptChars), attempts: n };
      if (!result.retriable || n > this.config.maxRetries) {
        const tries = n > 1 ? ` (after ${n} attempts)` : '';
        return { outcome: { ...failure(result.reason, result.message + tries), httpStatus: result.httpStatus, response: result.body }, attempts: n };
      }
      const backoff = Math.min(BACKOFF_MS * 2 ** (n - 1), MAX_BACKOFF_MS) * (1 - Math.random() / 2);
      await sleep(result.retryAfterMs ?? backoff);
    }
  }

  /** One HTTP request under the per-attempt timeout, the body read included. */
  private async send<T>(req: LlmRequest<T>, body: object): Promise<Attempt> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.config.timeoutMs);
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (req.endpoint.apiKey) headers.authorization = `Bearer ${req.endpoint.apiKey}`;
    try {
      const res = await this.fetchFn(`${req.endpoint.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
        method: 'POST', headers, body: JSON.stringify(body), signal: controller.signal,
      });
      const text = await readLimited(res);
      if (res.ok) return { kind: 'answer', httpStatus: res.status, body: text };
      const retriable = res.status === 429 || res.status >= 500;
      return {
        kind: 'fail', reason: 'http', httpStatus: res.status, body: text, retriable,
        retryAfterMs: retriable ? retryAfterMs(res.headers.get('retry-after')) : null,
        message: `HTTP ${res.status} from ${hostOf(req.endpoint.baseUrl)}${text.trim() ? `: ${text.trim().slice(0, ERROR_BODY_CHARS)}` : ''}`,
      };
    } catch (err) {
      if (controller.signal.aborted) {
        return { kind: 'fail', reason: 'timeout', httpStatus: null, body: null, retriable: true, retryAfterMs: null, message: `No answer within ${this.config.timeoutMs.toLocaleString('en')} ms` };
      }
      if (err instanceof BodyTooLarge) return { kind: 'fail', reason: 'malformed', httpStatus: null, body: null, retriable: false, retryAfterMs: null, message: err.message };
      const cause = (err as Error & { cause?: Error }).cause;
      return { kind: 'fail', reason: 'network', httpStatus: null, body: null, retriable: true, retryAfterMs: null,
        message: `Could not reach ${hostOf(req.endpoint.baseUrl)}: ${cause?.message ?? (err as Error).message}` };
    } finally {
      clearTimeout(timer);
    }
  }

  private row<T>(req: LlmRequest<T>, requestHash: string, outcome: Outcome, attempts: number, latencyMs: number): NewLlmCall {
    const ctx = req.context;
    return {
      kbId: ctx.kbId, jobId: ctx.jobId ?? null, studyId: ctx.studyId ?? null, purpose: ctx.purpose, itemKey: ctx.itemKey ?? null, requestHash,
      model: req.endpoint.model, baseUrlHost: hostOf(req.endpoint.baseUrl), promptId: req.prompt.promptId, promptVersion: req.prompt.promptVersion,
      messages: req.prompt.messages, response: outcome.response, status: outcome.status, httpStatus: outcome.httpStatus,
      error: outcome.status === 'ok' ? null : outcome.message, attempts, promptTokens: outcome.promptTokens,
      completionTokens: outcome.completionTokens, totalTokens: outcome.totalTokens, latencyMs,
    };
  }

  private async acquire(): Promise<void> {
    if (this.inFlight < this.config.concurrency) {
      this.inFlight++;
      return;
    }
    // The slot is handed over by release(): inFlight stays as it is.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.inFlight--;
  }
}

const failure = (status: LlmFailureReason, message: string): Outcome =>
  ({ status, message, httpStatus: null, response: null, promptTokens: null, completionTokens: null, totalTokens: 0 });

const hostOf = (baseUrl: string): string => {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl.slice(0, 200);
  }
};

class BodyTooLarge extends Error {}

/** The body as text, refusing to read past MAX_BODY_BYTES. */
async function readLimited(res: Response): Promise<string> {
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLarge(`The response is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

type ChatContent = { ok: true; content: string; refusal: string | null; finishReason: string | null; usage: { prompt: number | null; completion: number | null; total: number | null } } | { ok: false; message: string };

/** choices[0].message of a chat-completions body, or what is wrong with the body. */
function chatContent(body: string): ChatContent {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, message: 'The response is not JSON' };
  }
  const choice = (json as { choices?: unknown[] } | null)?.choices?.[0] as { message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown } | undefined;
  if (!choice || typeof choice !== 'object' || !choice.message || typeof choice.message !== 'object') {
    return { ok: false, message: 'The response has no choices[0].message' };
  }
  const { content, refusal } = choice.message;
  if (content !== null && content !== undefined && typeof content !== 'string') return { ok: false, message: 'choices[0].message.content is not text' };
  const usage = (json as { usage?: Record<string, unknown> }).usage ?? {};
  const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : null);
  return {
    ok: true, content: content ?? '', refusal: typeof refusal === 'string' && refusal.trim() ? refusal : null,
    finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
    usage: { prompt: count(usage.prompt_tokens), completion: count(usage.completion_tokens), total: count(usage.total_tokens) },
  };
}

/** A 2xx body as an outcome: its content when it is a usable answer, a refusal, or a malformed response. */
function readCompletion(httpStatus: number, body: string, promptChars: number): Outcome {
  const chat = chatContent(body);
  if (!chat.ok) return { ...failure('malformed', chat.message), httpStatus, response: body };
  const { prompt, completion, total } = chat.usage;
  const reported = prompt !== null || completion !== null || total !== null;
  const tokens = {
    promptTokens: reported ? prompt : null,
    completionTokens: reported ? completion : null,
    totalTokens: reported ? total ?? (prompt ?? 0) + (completion ?? 0) : estimateTokens(promptChars + chat.content.length),
  };
  const base = { httpStatus, response: chat.refusal ?? chat.content, ...tokens };
  if (chat.refusal) return { ...base, status: 'refused', message: `The model refused: ${chat.refusal.slice(0, ERROR_BODY_CHARS)}` };
  if (chat.finishReason === 'content_filter') return { ...base, status: 'refused', message: "The endpoint's content filter stopped the answer" };
  if (!chat.content.trim()) return { ...base, status: 'refused', message: 'The model gave an empty answer' };
  return { ...base, status: 'ok', message: '' };
}
