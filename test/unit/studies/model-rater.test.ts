import { describe, expect, it } from 'vitest';
import { dimensionsSchema, type Dimension } from '../../../lib/studies/dimensions';
import { describeDimensions, ratePromptVars, ratingResponseSchema } from '../../../lib/studies/model-rater-prompt';
import { agreementWithHumans, humanMedian, modelRaterResults } from '../../../lib/studies/model-rater-results';
import { ratedDimensions, type RatingRow } from '../../../lib/studies/results';

const DIMENSIONS: Dimension[] = dimensionsSchema.parse([
  { kind: 'scale', key: 'naturalness', label: 'Naturalness', question: 'Reads like a person wrote it.', min: 1, max: 5, anchors: { 1: 'Not at all', 5: 'Fully' } },
  { kind: 'binary', key: 'answerable', label: 'Answerable' },
  { kind: 'text', key: 'comment', label: 'Comment' },
]);

describe('the human median', () => {
  it('is the middle value, and the lower middle one for an even count', () => {
    expect(humanMedian([4])).toBe(4);
    expect(humanMedian([5, 1, 2])).toBe(2);
    expect(humanMedian([3, 2])).toBe(2);
    expect(humanMedian([5, 3, 4, 3])).toBe(3);
    expect(() => humanMedian([])).toThrow();
  });
});

describe('agreement of a model with the human median', () => {
  it('is ordinal alpha over the items both rated (hand-computed)', () => {
    // Items 1-4 give the units (model, median) (1,1), (2,2), (3,2), (3,3); item 5 has no human rating, item 6
    // no model rating. Coincidences: o11 = 2, o22 = 2, o23 = o32 = 1, o33 = 2; marginals n1 = 2, n2 = 3, n3 = 3,
    // n = 8. Ordinal distances: d(1,2) = (5 - 2.5)^2 = 6.25, d(1,3) = (8 - 2.5)^2 = 30.25, d(2,3) = (6 - 3)^2 = 9.
    // Observed: 2 x 9 = 18; expected: 2 x (2x3x6.25 + 2x3x30.25 + 3x3x9) = 600; alpha = 1 - 7 x 18 / 600 = 0.79.
    const model = new Map([[1, 1], [2, 2], [3, 3], [4, 3], [5, 5]]);
    // The medians: [1] -> 1; [2, 3] -> 2 (lower middle); [1, 2, 5] -> 2; [3, 3, 4, 5] -> 3 (lower middle).
    const humans = new Map([[1, [1]], [2, [3, 2]], [3, [1, 5, 2]], [4, [5, 3, 4, 3]], [6, [4]]]);
    const a = agreementWithHumans(model, humans, 'ordinal');
    expect(a.units).toBe(4);
    expect(a.alpha).toBeCloseTo(0.79, 10);
  });

  it('is nominal alpha for a binary dimension (hand-computed), and null without variation', () => {
    // Units (1,1), (0,0), (1,0), (0,0): n0 = 5, n1 = 3, n = 8; observed o01 + o10 = 2; expected 2 x 5 x 3 = 30;
    // alpha = 1 - 7 x 2 / 30 = 8/15.
    const a = agreementWithHumans(new Map([[1, 1], [2, 0], [3, 1], [4, 0]]), new Map([[1, [1]], [2, [0, 1]], [3, [0]], [4, [0, 0, 1]]]), 'nominal');
    expect(a).toEqual({ alpha: expect.closeTo(8 / 15, 10), units: 4 });
    expect(agreementWithHumans(new Map([[1, 3], [2, 3]]), new Map([[1, [3]], [2, [3, 4]]]), 'ordinal')).toEqual({ alpha: null, units: 2 });
    expect(agreementWithHumans(new Map([[1, 3]]), new Map(), 'ordinal')).toEqual({ alpha: null, units: 0 });
  });
});

describe('model rater results', () => {
  it('summarise each model on its own, per rated dimension, compared with the human ratings counted', () => {
    const human = (participantId: number, itemId: number, dimension: string, value: number): RatingRow => ({ participantId, itemId, dimension, value, text: null });
    const humans = [human(1, 1, 'naturalness', 1), human(1, 2, 'naturalness', 3), human(2, 2, 'naturalness', 2), human(1, 3, 'naturalness', 1),
      human(2, 3, 'naturalness', 5), human(3, 3, 'naturalness', 2), human(1, 4, 'naturalness', 5), human(2, 4, 'naturalness', 3),
      human(3, 4, 'naturalness', 4), human(4, 4, 'naturalness', 3), { participantId: 1, itemId: 1, dimension: 'comment', value: null, text: 'fine' }];
    const value = (model: string, itemId: number, dimension: string, v: number) => ({ model, itemId, dimension, value: v });
    const results = modelRaterResults(DIMENSIONS,
      [{ model: 'm-a', status: 'SUCCEEDED', done: 5, total: 5, failures: 0 }, { model: 'm-b', status: 'RUNNING', done: 1, total: 5, failures: 1 }],
      [value('m-a', 1, 'naturalness', 1), value('m-a', 2, 'naturalness', 2), value('m-a', 3, 'naturalness', 3), value('m-a', 4, 'naturalness', 3),
        value('m-a', 5, 'naturalness', 5), value('m-a', 1, 'answerable', 1), value('m-b', 1, 'naturalness', 4)],
      humans);
    expect(results).toHaveLength(2);
    const [a, b] = results;
    expect(a).toMatchObject({ model: 'm-a', ratings: 6, failures: 0 });
    expect(a!.dimensions.map((d) => d.key)).toEqual(['naturalness', 'answerable']);
    expect(a!.dimensions[0]).toEqual({
      key: 'naturalness', label: 'Naturalness', kind: 'scale', points: [1, 2, 3, 4, 5],
      summary: { n: 5, mean: 2.8, distribution: { 1: 1, 2: 1, 3: 2, 4: 0, 5: 1 }, positive: 0.2, nonNegative: 0.6 },
      agreementWithHumans: { alpha: expect.closeTo(0.79, 10), units: 4 },
    });
    // No human rated "answerable": the model's rating is summarised, with no unit to agree on.
    expect(a!.dimensions[1]).toMatchObject({ kind: 'binary', points: [0, 1], summary: { n: 1, positive: 1, nonNegative: null }, agreementWithHumans: { alpha: null, units: 0 } });
    // One unit, (4, 1), disagreeing: alpha 0.
    expect(b).toMatchObject({ model: 'm-b', status: 'RUNNING', ratings: 1, failures: 1, dimensions: [{ summary: { n: 1, mean: 4 }, agreementWithHumans: { units: 1, alpha: 0 } }, { summary: { n: 0, mean: null } }] });
  });
});

describe('the rating prompt and its answer', () => {
  const rated = ratedDimensions(DIMENSIONS);
  const schema = ratingResponseSchema(rated);

  it('states each rated dimension with its key, question, points and anchors', () => {
    expect(describeDimensions(rated)).toBe([
      '- "naturalness" (Naturalness): Reads like a person wrote it.',
      '  An integer from 1 to 5 (1 = Not at all; 5 = Fully).',
      '- "answerable" (Answerable)',
      '  An integer from 0 to 1 (0 = No; 1 = Yes).',
    ].join('\n'));
    const item = { text: 'Which drug treats colitis?', answerNames: ['Mesalazine', 'Budesonide'] };
    expect(ratePromptVars({ instructions: 'Rate it.', showAnswers: true }, rated, item)).toEqual({
      instructions: 'Rate it.', dimensions: describeDimensions(rated), query: 'Which drug treats colitis?', answers: '- Mesalazine\n- Budesonide',
    });
    // Answers the people do not see are not shown to the model either.
    expect(ratePromptVars({ instructions: 'Rate it.', showAnswers: false }, rated, item).answers).not.toContain('Mesalazine');
  });

  it('takes an integer on each scale for every rated dimension, and nothing else', () => {
    expect(schema.parse({ ratings: { naturalness: 4, answerable: 0 }, reason: 'Plain.' })).toEqual({ ratings: { naturalness: 4, answerable: 0 }, reason: 'Plain.' });
    // Extra keys are ignored; a missing reason is empty; a long one is cut.
    expect(schema.parse({ ratings: { naturalness: 1, answerable: 1, comment: 3 } })).toEqual({ ratings: { naturalness: 1, answerable: 1 }, reason: '' });
    expect(schema.parse({ ratings: { naturalness: 1, answerable: 1 }, reason: 'x'.repeat(5000) }).reason).toHaveLength(2000);
    for (const bad of [
      { ratings: { naturalness: 6, answerable: 0 } }, { ratings: { naturalness: 0, answerable: 0 } }, { ratings: { naturalness: 3.5, answerable: 0 } },
      { ratings: { naturalness: '4', answerable: 0 } }, { ratings: { naturalness: 4, answerable: 2 } }, { ratings: { naturalness: 4 } },
      { ratings: { naturalness: 4, answerable: true } }, { ratings: [4, 1] }, { naturalness: 4, answerable: 1 }, { ratings: { naturalness: 4, answerable: 1 }, reason: 7 },
    ]) expect(schema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
});
