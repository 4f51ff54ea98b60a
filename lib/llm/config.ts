import type { LlmConfig, LlmEndpoint } from './types';

type Env = Record<string, string | undefined>;

const DEFAULTS = { concurrency: 4, timeoutMs: 60_000, maxRetries: 4 };

/** A whole number in [min, max] from the variable, the default when it is unset or blank; an Error naming it otherwise. */
function intVar(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}, not "${raw}"`);
  }
  return value;
}

function baseUrlVar(env: Env): string | null {
  const raw = env.SKB_LLM_BASE_URL?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`SKB_LLM_BASE_URL must be an http(s) URL such as https://api.openai.com/v1, not "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`SKB_LLM_BASE_URL must be an http(s) URL, not "${raw}"`);
  }
  // Requests go to `{baseUrl}/chat/completions`: no trailing slash to double.
  return raw.replace(/\/+$/, '');
}

/**
 * The LLM the environment configures: SKB_LLM_BASE_URL (none: `main` is null and the deterministic pipeline
 * runs), SKB_LLM_MODEL (required with a base URL), SKB_LLM_API_KEY, SKB_LLM_FILTER_MODELS (comma-separated,
 * on the same base URL), SKB_LLM_CONCURRENCY, SKB_LLM_TIMEOUT_MS, SKB_LLM_MAX_RETRIES.
 */
export function llmConfig(env: Env = process.env): LlmConfig {
  const concurrency = intVar(env, 'SKB_LLM_CONCURRENCY', DEFAULTS.concurrency, 1, 256);
  const timeoutMs = intVar(env, 'SKB_LLM_TIMEOUT_MS', DEFAULTS.timeoutMs, 100, 3_600_000);
  const maxRetries = intVar(env, 'SKB_LLM_MAX_RETRIES', DEFAULTS.maxRetries, 0, 20);
  const baseUrl = baseUrlVar(env);
  if (!baseUrl) return { main: null, filterModels: [], concurrency, timeoutMs, maxRetries };

  const model = env.SKB_LLM_MODEL?.trim();
  if (!model) throw new Error('SKB_LLM_MODEL must name the model to use at SKB_LLM_BASE_URL (e.g. gpt-4o-mini, llama3.1:8b)');
  const apiKey = env.SKB_LLM_API_KEY?.trim() || undefined;
  const endpoint = (name: string): LlmEndpoint => (apiKey ? { baseUrl, model: name, apiKey } : { baseUrl, model: name });
  const main = endpoint(model);
  const filterNames = [...new Set((env.SKB_LLM_FILTER_MODELS ?? '').split(',').map((m) => m.trim()).filter(Boolean))];
  return { main, filterModels: filterNames.length ? filterNames.map(endpoint) : [main], concurrency, timeoutMs, maxRetries };
}
