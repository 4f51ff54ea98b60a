import { describe, expect, it } from 'vitest';
import { branchKey, readTemplateKey } from '@/lib/synthesis/template-key';

describe('template keys', () => {
  it('are written back as they are read', () => {
    const key = 'disease -[indication]<- drug -[target]-> gene/protein';
    expect(branchKey(readTemplateKey(key)![0]!)).toBe(key);
  });

  it('read into the metapath tool\'s steps, forwards and backwards, per branch', () => {
    expect(readTemplateKey('disease -[indication]<- drug -[target]-> gene/protein & anatomy -[expression present]-> gene/protein')).toEqual([
      { startType: 'disease', steps: [{ relation: 'indication', direction: 'in', targetType: 'drug' }, { relation: 'target', direction: 'out', targetType: 'gene/protein' }] },
      { startType: 'anatomy', steps: [{ relation: 'expression present', direction: 'out', targetType: 'gene/protein' }] },
    ]);
    expect(readTemplateKey('disease')).toBeNull();
    expect(readTemplateKey('disease -[indication]<-drug')).toBeNull();
  });
});
