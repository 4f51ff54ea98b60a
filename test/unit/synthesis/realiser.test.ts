import { describe, expect, it } from 'vitest';
import { fieldLabel, realiseQuery } from '@/lib/synthesis/compose';
import { stepWords, templateWords, typeWords } from '@/lib/synthesis/template-words';
import type { SynthesisTemplate, TemplateBranch } from '@/lib/synthesis/types';

const branch = (startType: string, ...steps: [string, 'out' | 'in', string][]): TemplateBranch =>
  ({ startType, steps: steps.map(([relation, direction, targetType]) => ({ relation, direction, targetType })) });

const template = (...branches: TemplateBranch[]): SynthesisTemplate => {
  const answerType = branches[0]!.steps.at(-1)!.targetType;
  return { key: 'k', branches, answerType, steps: 0, words: templateWords(branches, answerType) };
};

describe('template words', () => {
  it('reads a relation from the side that does it, whichever way the edge is stored', () => {
    // drug -indication-> disease, read from the disease and from the drug.
    expect(templateWords([branch('drug', ['indication', 'out', 'disease'])], 'disease')).toBe('a disease treated by {seed 1}');
    expect(templateWords([branch('disease', ['indication', 'in', 'drug'])], 'drug')).toBe('a drug indicated for {seed 1}');
    // PrimeKG's mirrored copy gene -target-> drug still reads as the drug targeting.
    expect(templateWords([branch('gene/protein', ['target', 'out', 'drug'])], 'drug')).toBe('a drug that targets {seed 1}');
    expect(templateWords([branch('drug', ['target', 'out', 'gene/protein'])], 'gene/protein')).toBe('a gene/protein targeted by {seed 1}');
  });

  it('reads a one-way relation by the edge direction, and nests steps from the answer back to the seed', () => {
    expect(templateWords([branch('paper', ['paper___cites___paper', 'out', 'paper'])], 'paper')).toBe('a paper cited by {seed 1}');
    expect(templateWords([branch('paper', ['paper___cites___paper', 'in', 'paper'])], 'paper')).toBe('a paper that cites {seed 1}');
    expect(templateWords([branch('disease', ['indication', 'in', 'drug'], ['target', 'out', 'gene/protein'], ['interacts with', 'out', 'biological_process'])], 'biological_process'))
      .toBe('a biological process that interacts with a gene/protein targeted by a drug indicated for {seed 1}');
    expect(templateWords([branch('product', ['has_brand', 'out', 'brand'])], 'brand')).toBe('a brand that makes {seed 1}');
    expect(templateWords([branch('brand', ['has_brand', 'in', 'product'])], 'product')).toBe('a product from the brand {seed 1}');
  });

  it('joins two paths with "and", each with its own seed', () => {
    expect(templateWords([branch('disease', ['associated with', 'out', 'gene/protein']), branch('drug', ['target', 'out', 'gene/protein'])], 'gene/protein'))
      .toBe('a gene/protein associated with {seed 1} and targeted by {seed 2}');
  });

  it('quotes a relation it does not know, with the right article, and writes types as words', () => {
    expect(stepWords({ relation: 'regulates', direction: 'out', targetType: 'gene' }, 'gene')).toBe('with a “regulates” link from');
    expect(stepWords({ relation: 'encodes_for', direction: 'in', targetType: 'gene' }, 'protein')).toBe('with an “encodes for” link to');
    expect(templateWords([branch('disease', ['phenotype present', 'out', 'effect/phenotype'])], 'effect/phenotype'))
      .toBe('an effect/phenotype that is a phenotype of {seed 1}');
    expect(typeWords('field_of_study')).toBe('field of study');
  });
});

describe('the template realiser', () => {
  const oneStep = template(branch('drug', ['target', 'out', 'gene/protein']));

  it('asks for the answer type restricted by the relational words, then one predicate per field', () => {
    expect(realiseQuery(oneStep, ['Infliximab'], [
      { text: 'transcription factor', field: 'description', whole: false },
      { text: 'red', field: 'details.colour', whole: true },
      { text: 'binds DNA', field: 'description', whole: false },
    ])).toBe('Which gene/protein targeted by Infliximab has a description that mentions “transcription factor” and “binds DNA” and has “red” as its colour?');
  });

  it('names every seed of a two-path template and describes an unplaced property', () => {
    const twoPaths = template(branch('disease', ['associated with', 'out', 'gene/protein']), branch('drug', ['target', 'out', 'gene/protein']));
    expect(realiseQuery(twoPaths, ['Crohn disease', 'Infliximab'], [{ text: 'a receptor', field: null, whole: false }]))
      .toBe('Which gene/protein associated with Crohn disease and targeted by Infliximab is described as “a receptor”?');
  });

  it('lists three phrases of one field with commas', () => {
    expect(realiseQuery(oneStep, ['X'], ['a', 'b', 'c'].map((text) => ({ text, field: 'reviews[2].text', whole: false }))))
      .toBe('Which gene/protein targeted by X has a text that mentions “a”, “b” and “c”?');
  });

  it('labels a field by its last named part', () => {
    expect(fieldLabel('details.active_ingredient')).toBe('active ingredient');
    expect(fieldLabel('features')).toBe('features');
    expect(fieldLabel('reviews[0].summary')).toBe('summary');
  });
});
