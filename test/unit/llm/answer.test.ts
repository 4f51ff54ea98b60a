import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { extractJsonObject, parseAnswer } from '../../../lib/llm/answer';
import { estimateTokens, requestHash, retryAfterMs } from '../../../lib/llm/client';

describe('extractJsonObject', () => {
  it('reads a bare object, a fenced one and one surrounded by prose', () => {
    expect(extractJsonObject('{"satisfies": true, "reason": "ok"}')).toEqual({ satisfies: true, reason: 'ok' });
    expect(extractJsonObject('```json\n{"query": "a"}\n```')).toEqual({ query: 'a' });
    expect(extractJsonObject('```\n{"query": "a"}\n```')).toEqual({ query: 'a' });
    expect(extractJsonObject('Here you go: {"query": "b"} — anything else?')).toEqual({ query: 'b' });
  });

  it('takes the first complete object, with braces and quotes inside strings', () => {
    expect(extractJsonObject('{"a": "x } \\" {"} then {"b": 2}')).toEqual({ a: 'x } " {' });
    expect(extractJsonObject('pick {one} of: {"c": {"d": [1, 2]}}')).toEqual({ c: { d: [1, 2] } });
    expect(extractJsonObject('{"broken": {"e": 1} {"f": 2}')).toEqual({ e: 1 });
  });

  it('gives null without a complete object', () => {
    expect(extractJsonObject('no json here')).toBeNull();
    expect(extractJsonObject('{"query": "cut off')).toBeNull();
    expect(extractJsonObject('[1, 2, 3]')).toBeNull();
    expect(extractJsonObject('')).toBeNull();
  });
});

describe('parseAnswer', () => {
  const schema = z.object({ satisfies: z.boolean(), reason: z.string() });
  it('checks the object against the schema and names the fields that are wrong', () => {
    expect(parseAnswer('{"satisfies": false, "reason": "no"}', schema)).toEqual({ ok: true, value: { satisfies: false, reason: 'no' } });
    const wrong = parseAnswer('{"satisfies": "yes"}', schema);
    expect(wrong.ok).toBe(false);
    expect(wrong.ok ? '' : wrong.message).toMatch(/^The answer does not match what was asked: satisfies: .*; reason: /);
    expect(parseAnswer('yes', schema)).toEqual({ ok: false, message: 'The answer holds no JSON object' });
  });
});

describe('client helpers', () => {
  it('reads Retry-After as seconds or an HTTP date, capped at a minute', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs('0.5', now)).toBe(500);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('3600', now)).toBe(60_000);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });

  it('hashes the model, messages and parameters, and nothing else', () => {
    const body = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }], temperature: 0, max_tokens: 100 };
    expect(requestHash(body)).toMatch(/^[0-9a-f]{64}$/);
    expect(requestHash({ ...body })).toBe(requestHash(body));
    expect(requestHash({ ...body, model: 'n' })).not.toBe(requestHash(body));
    expect(requestHash({ ...body, temperature: 0.2 })).not.toBe(requestHash(body));
    expect(requestHash({ ...body, messages: [{ role: 'system', content: 'hi' }] })).not.toBe(requestHash(body));
  });

  it('estimates four characters a token, rounding up', () => {
    expect(estimateTokens(0)).toBe(0);
    expect(estimateTokens(9)).toBe(3);
  });
});
