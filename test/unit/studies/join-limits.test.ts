import { describe, expect, it } from 'vitest';
import { JOIN_LIMIT_DEFAULTS, joinLimits } from '../../../lib/studies/join-limits';

describe('study link join limits', () => {
  it('uses the defaults, each replaced by its environment variable', () => {
    expect(joinLimits({})).toEqual(JOIN_LIMIT_DEFAULTS);
    expect(joinLimits({ SKB_STUDY_JOINS_PER_ADDRESS: '40', SKB_STUDY_RECLAIM_MINUTES: '', SKB_STUDY_JOINS_PER_LINK: '1000' }))
      .toEqual({ ...JOIN_LIMIT_DEFAULTS, perAddress: 40, perLink: 1000 });
  });

  it('refuses a setting that is not a positive whole number, naming it', () => {
    expect(() => joinLimits({ SKB_STUDY_RECLAIM_MINUTES: '0' })).toThrow(/SKB_STUDY_RECLAIM_MINUTES must be a positive whole number, not "0"/);
    expect(() => joinLimits({ SKB_STUDY_JOINS_PER_LINK: '2.5' })).toThrow(/SKB_STUDY_JOINS_PER_LINK/);
  });
});
