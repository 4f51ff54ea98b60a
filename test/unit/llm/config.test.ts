import { describe, expect, it } from 'vitest';
import { llmConfig } from '../../../lib/llm/config';

describe('llmConfig', () => {
  it('configures no LLM without SKB_LLM_BASE_URL, with the defaults', () => {
    expect(llmConfig({})).toEqual({ main: null, filterModels: [], concurrency: 4, timeoutMs: 60_000, maxRetries: 4 });
    expect(llmConfig({ SKB_LLM_BASE_URL: '  ', SKB_LLM_MODEL: 'gpt-4o-mini' }).main).toBeNull();
  });

  it('reads the endpoint, key, filter models and limits', () => {
    const config = llmConfig({
      SKB_LLM_BASE_URL: 'http://127.0.0.1:8000/v1/', SKB_LLM_MODEL: ' qwen2.5-7b ', SKB_LLM_API_KEY: 'sk-1',
      SKB_LLM_FILTER_MODELS: 'llama3.1:8b, mistral ,,llama3.1:8b', SKB_LLM_CONCURRENCY: '8', SKB_LLM_TIMEOUT_MS: '30000', SKB_LLM_MAX_RETRIES: '0',
    });
    expect(config).toEqual({
      main: { baseUrl: 'http://127.0.0.1:8000/v1', model: 'qwen2.5-7b', apiKey: 'sk-1' },
      filterModels: [
        { baseUrl: 'http://127.0.0.1:8000/v1', model: 'llama3.1:8b', apiKey: 'sk-1' },
        { baseUrl: 'http://127.0.0.1:8000/v1', model: 'mistral', apiKey: 'sk-1' },
      ],
      concurrency: 8, timeoutMs: 30_000, maxRetries: 0,
    });
  });

  it('filters with the main model when no filter models are named, and sends no key when none is set', () => {
    const config = llmConfig({ SKB_LLM_BASE_URL: 'http://localhost:11434/v1', SKB_LLM_MODEL: 'llama3.1:8b' });
    expect(config.main).toEqual({ baseUrl: 'http://localhost:11434/v1', model: 'llama3.1:8b' });
    expect(config.filterModels).toEqual([config.main]);
  });

  it('names the variable that is wrong', () => {
    expect(() => llmConfig({ SKB_LLM_BASE_URL: 'http://localhost:8080/v1' })).toThrow(/SKB_LLM_MODEL/);
    expect(() => llmConfig({ SKB_LLM_BASE_URL: 'localhost:8080', SKB_LLM_MODEL: 'm' })).toThrow(/SKB_LLM_BASE_URL must be an http\(s\) URL/);
    expect(() => llmConfig({ SKB_LLM_BASE_URL: 'not a url', SKB_LLM_MODEL: 'm' })).toThrow(/SKB_LLM_BASE_URL.*"not a url"/);
    expect(() => llmConfig({ SKB_LLM_CONCURRENCY: '0' })).toThrow('SKB_LLM_CONCURRENCY must be a whole number from 1 to 256, not "0"');
    expect(() => llmConfig({ SKB_LLM_CONCURRENCY: '2.5' })).toThrow(/SKB_LLM_CONCURRENCY/);
    expect(() => llmConfig({ SKB_LLM_TIMEOUT_MS: '10s' })).toThrow(/SKB_LLM_TIMEOUT_MS.*"10s"/);
    expect(() => llmConfig({ SKB_LLM_MAX_RETRIES: '-1' })).toThrow(/SKB_LLM_MAX_RETRIES/);
    expect(() => llmConfig({ SKB_LLM_MAX_RETRIES: '21' })).toThrow(/from 0 to 20/);
  });
});
