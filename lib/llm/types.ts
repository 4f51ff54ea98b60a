import type { z } from 'zod';

/** One OpenAI-compatible chat-completions endpoint and model (OpenAI, vLLM, Ollama, llama.cpp's server …). */
export interface LlmEndpoint {
  /** Base URL; requests go to `{baseUrl}/chat/completions`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
}

/** What the environment configures; `main` is null when no LLM is configured (the deterministic pipeline runs). */
export interface LlmConfig {
  /** SKB_LLM_BASE_URL, SKB_LLM_MODEL, SKB_LLM_API_KEY. */
  main: LlmEndpoint | null;
  /** SKB_LLM_FILTER_MODELS (comma-separated model names on the same base URL); `[main]` when unset. */
  filterModels: LlmEndpoint[];
  /** SKB_LLM_CONCURRENCY: requests in flight at once per client (default 4). */
  concurrency: number;
  /** SKB_LLM_TIMEOUT_MS (default 60,000). */
  timeoutMs: number;
  /** SKB_LLM_MAX_RETRIES on 429, 5xx, timeouts and network errors (default 4). */
  maxRetries: number;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A prompt rendered from a versioned template kept in the repository (lib/llm/prompts/). */
export interface RenderedPrompt {
  promptId: string;
  promptVersion: number;
  messages: ChatMessage[];
}

/** Who a call was made for: stored with it, and used to reuse a finished call when a job resumes. */
export interface LlmCallContext {
  kbId: number | null;
  /** The synthesis job, when the call is part of one. */
  jobId?: number | null;
  /** The study, when the call rates for one. */
  studyId?: number | null;
  /** E.g. "properties", "compose", "filter", "rate". */
  purpose: string;
  /**
   * A key for the unit of work (e.g. "item 12 / filter / entity 345"): with a jobId or studyId, a stored
   * successful call with the same key and request is returned instead of calling again.
   */
  itemKey?: string;
}

export interface LlmRequest<T> {
  endpoint: LlmEndpoint;
  prompt: RenderedPrompt;
  /** What the answer must be: the response's JSON object is checked against it. */
  schema: z.ZodType<T>;
  context: LlmCallContext;
  maxTokens?: number;
  temperature?: number;
}

export type LlmFailureReason = 'timeout' | 'http' | 'network' | 'malformed' | 'refused' | 'budget';

/** A call's outcome; a failure is recorded (callId) and never thrown. */
export type LlmResult<T> =
  | { ok: true; value: T; callId: number; tokens: number; reused: boolean }
  | { ok: false; reason: LlmFailureReason; message: string; callId: number | null; tokens: number };
