import { describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/errors';
import { parseWith } from '../../../lib/http/api';
import { baselineName, baselineRequestSchema, DEFAULT_BASELINE } from '../../../lib/queries/baseline';

const parse = (body: unknown) => parseWith(baselineRequestSchema, body, 'body');

function refusal(body: unknown): AppError {
  try {
    parse(body);
  } catch (err) {
    return err as AppError;
  }
  throw new Error(`accepted ${JSON.stringify(body)}`);
}

describe('the baseline request', () => {
  it('defaults to BM25 with k1 1.2 and b 0.75 on document text', () => {
    expect(parse({})).toEqual({ method: 'bm25', k1: 1.2, b: 0.75, relations: false, stopWords: false, stemming: false });
    expect(baselineName(DEFAULT_BASELINE)).toBe('BM25 (k1 1.2, b 0.75)');
    expect(baselineName(parse({ k1: 2, b: 0, relations: true }))).toBe('BM25 with relation lines (k1 2, b 0)');
    expect(baselineName(parse({ method: 'fulltext', release: 3 }))).toBe('Full-text baseline (PostgreSQL ts_rank)');
    expect(baselineName(parse({ stopWords: true }))).toBe('BM25 (k1 1.2, b 0.75; stop words removed)');
    expect(baselineName(parse({ stopWords: true, stemming: true }))).toBe('BM25 (k1 1.2, b 0.75; stop words removed, Porter stemming)');
  });

  it('refuses parameters out of range with a 400 naming the field', () => {
    for (const [body, field] of [[{ k1: -0.1 }, 'k1'], [{ b: -0.01 }, 'b'], [{ b: 1.5 }, 'b'], [{ k1: 'high' }, 'k1'], [{ method: 'tfidf' }, 'method'], [{ stemming: 'yes' }, 'stemming'], [{ stopWords: 1 }, 'stopWords']] as const) {
      const err = refusal(body);
      expect(err.status).toBe(400);
      expect(err.message).toMatch(new RegExp(`^Invalid body: ${field}: `));
    }
    expect(parse({ k1: 0, b: 1 })).toMatchObject({ k1: 0, b: 1 });
  });
});
