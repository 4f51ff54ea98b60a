import { describe, expect, it } from 'vitest';
import { consentText, finishedText } from '../../../lib/studies/participant-progress';

describe('participant progress in words', () => {
  it('says what is known instead of a bare dash', () => {
    const started = { consentedAt: null, startedAt: '2026-11-25T14:05:00Z', finishedAt: null };
    expect(consentText(started)).toBe('not asked (started 25 Nov 2026, 14:05 UTC)');
    expect(finishedText(started)).toBe('not yet');
    const done = { consentedAt: '2026-11-25T14:00:00Z', startedAt: '2026-11-25T14:01:00Z', finishedAt: '2026-11-26T09:30:00Z' };
    expect(consentText(done)).toBe('25 Nov 2026, 14:00 UTC');
    expect(finishedText(done)).toBe('26 Nov 2026, 09:30 UTC');
    const invited = { consentedAt: null, startedAt: null, finishedAt: null };
    expect(consentText(invited)).toBe('not yet');
    expect(finishedText(invited)).toBe('—');
  });
});
