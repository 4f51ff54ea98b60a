import { describe, expect, it } from 'vitest';
import { workMemMb } from '@/lib/kb/paths';

describe('work memory for a path search', () => {
  it('grows with the far end\'s degree, from 32 MB to at most 512 MB', () => {
    expect(workMemMb(10)).toBe(32);
    expect(workMemMb(326_264)).toBe(32);
    expect(workMemMb(1_000_000)).toBe(96);
    expect(workMemMb(100_000_000)).toBe(512);
  });
});
