import { describe, expect, it } from 'vitest';
import { queryOrigin } from '../../lib/authoring/audit-campaign';

describe('queryOrigin', () => {
  it('takes the origin a query states, then its provenance, then its set', () => {
    expect(queryOrigin({ origin: 'human' }, 'synthesized')).toBe('human');
    expect(queryOrigin({ synthesis: { jobId: 1 } }, 'imported')).toBe('synthesized');
    expect(queryOrigin({ campaign: 'write-queries' }, 'imported')).toBe('human');
    expect(queryOrigin({}, 'synthesized')).toBe('synthesized');
    expect(queryOrigin({}, 'human')).toBe('human');
  });

  it('reads an origin it does not know as imported', () => {
    expect(queryOrigin({ origin: 'crowd' }, 'imported')).toBe('imported');
    expect(queryOrigin({}, 'something else')).toBe('imported');
  });
});
