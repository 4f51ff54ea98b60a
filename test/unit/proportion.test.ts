import { describe, expect, it } from 'vitest';
import { wilsonInterval, Z_95 } from '../../lib/stats/proportion';

describe('wilsonInterval', () => {
  // Newcombe (1998), Statistics in Medicine 17:857-872, Table I, method 3 (score interval without correction).
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%i of %i gives Newcombe\'s published %f to %f', (x, n, low, high) => {
    const ci = wilsonInterval(x, n);
    expect(ci.rate).toBeCloseTo(x / n, 12);
    expect(ci.low).toBeCloseTo(low, 4);
    expect(ci.high).toBeCloseTo(high, 4);
  });

  it('is symmetric about one half: x of n mirrors n - x of n', () => {
    const a = wilsonInterval(3, 17);
    const b = wilsonInterval(14, 17);
    expect(a.low).toBeCloseTo(1 - b.high!, 12);
    expect(a.high).toBeCloseTo(1 - b.low!, 12);
  });

  it('reaches exactly 1 when every item is an error, and narrows as n grows', () => {
    expect(wilsonInterval(5, 5).high).toBe(1);
    const small = wilsonInterval(5, 10);
    const large = wilsonInterval(500, 1000);
    expect(small.high! - small.low!).toBeGreaterThan(large.high! - large.low!);
    expect(small.low).toBeCloseTo(0.2366, 4);
  });

  it('has no rate or interval without items, and takes another z', () => {
    expect(wilsonInterval(0, 0)).toEqual({ rate: null, low: null, high: null });
    const z90 = wilsonInterval(81, 263, 1.6448536269514722);
    const z95 = wilsonInterval(81, 263, Z_95);
    expect(z90.high! - z90.low!).toBeLessThan(z95.high! - z95.low!);
  });

  it('refuses counts that are not a proportion', () => {
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(1.5, 2)).toThrow(RangeError);
  });
});
