import { describe, expect, it } from 'vitest';
import { consentWords, finishedWords } from '../../../lib/studies/participant-progress';

describe('participant progress in words', () => {
  it('says what is known instead of a bare dash', () => {
    const started = { consentedAt: null, startedAt: '2026-11-25T14:05:00Z', finishedAt: null };
    expect(consentWords(started)).toEqual({ before: 'not asked (started ', at: '2026-11-25T14:05:00Z', after: ')' });
    expect(finishedWords(started)).toEqual({ text: 'not yet' });
    const done = { consentedAt: '2026-11-25T14:00:00Z', startedAt: '2026-11-25T14:01:00Z', finishedAt: '2026-11-26T09:30:00Z' };
    expect(consentWords(done)).toEqual({ before: '', at: '2026-11-25T14:00:00Z', after: '' });
    expect(finishedWords(done)).toEqual({ before: '', at: '2026-11-26T09:30:00Z', after: '' });
    const invited = { consentedAt: null, startedAt: null, finishedAt: null };
    expect(consentWords(invited)).toEqual({ text: 'not yet' });
    expect(finishedWords(invited)).toEqual({ text: '—' });
  });
});
