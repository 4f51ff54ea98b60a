import { describe, expect, it } from 'vitest';
import { answerKey, firstIncomplete, isComplete, shortcutKeys, type Answer } from '@/components/studies/rate/model';
import { DEFAULT_DIMENSIONS, type Dimension } from '@/lib/studies/dimensions';

const comment: Dimension = { kind: 'text', key: 'comment', label: 'Comment', question: '', required: false };
const DIMS = [...DEFAULT_DIMENSIONS, comment];
const answered = (pairs: [number, string][]) => new Map<string, Answer>(pairs.map(([i, d]) => [answerKey(i, d), { value: 3, text: null }]));

describe('rating screen model', () => {
  it('counts an item complete when every required dimension has an answer; optional ones do not count', () => {
    const answers = answered([[1, 'naturalness'], [1, 'diversity'], [1, 'practicality'], [2, 'naturalness']]);
    expect(isComplete(1, DIMS, answers)).toBe(true);
    expect(isComplete(2, DIMS, answers)).toBe(false);
    expect(firstIncomplete([{ itemId: 1 }, { itemId: 2 }, { itemId: 3 }], DIMS, answers)).toBe(1);
    expect(firstIncomplete([{ itemId: 1 }], DIMS, answers)).toBe(-1);
  });

  it('maps number keys to the points themselves when they are digits, else to their positions', () => {
    expect([...shortcutKeys(DEFAULT_DIMENSIONS[0]!)]).toEqual([['1', 1], ['2', 2], ['3', 3], ['4', 4], ['5', 5]]);
    expect([...shortcutKeys({ kind: 'binary', key: 'ok', label: 'OK', question: '', anchors: {}, required: true })]).toEqual([['0', 0], ['1', 1]]);
    const wide: Dimension = { kind: 'scale', key: 'w', label: 'W', question: '', min: -5, max: 5, anchors: {}, required: true };
    const keys = shortcutKeys(wide);
    expect(keys.get('1')).toBe(-5);
    expect(keys.get('0')).toBe(4);
    expect(keys.size).toBe(10);
  });
});
