import { describe, expect, it } from 'vitest';
import { agreed, removalReason, termEvidenceVote } from '@/lib/synthesis/filter';
import { contentWords, extractProperties, fieldsOf, locateQuote } from '@/lib/synthesis/properties';
import type { FilterVote, TextProperty } from '@/lib/synthesis/types';

const property = (text: string): TextProperty => ({ text, field: 'description', start: 0, end: text.length, source: 'extractor' });
const candidate = (description: string, aliases: string[] = []) =>
  ({ id: 1, externalId: 'e1', name: 'Entity E', aliases, document: { description, source: { kind: 'curated' } }, text: `- name: Entity E\n- description: ${description}` });

describe('term evidence', () => {
  it('reads a property as its content words: lower case, split at punctuation, stop words dropped', () => {
    expect(contentWords('The TNF-alpha inhibitor of the colon')).toEqual(['tnf', 'alpha', 'inhibitor', 'colon']);
  });

  it('keeps a candidate whose document has every content word of every property, in any order and case', () => {
    const vote = termEvidenceVote(candidate('An INHIBITOR of tnf (alpha) found in colon tissue'), [property('TNF-alpha inhibitor'), property('the colon')]);
    expect(vote).toEqual({ entity: 'e1', judge: 'term-evidence', keep: true, reason: 'its document has every word of every property' });
  });

  it('removes a candidate missing a word, naming the property and the words', () => {
    const vote = termEvidenceVote(candidate('- description: inhibits TNF alpha'), [property('TNF-alpha inhibitor'), property('alpha')]);
    expect(vote.keep).toBe(false);
    expect(vote.reason).toBe('“TNF-alpha inhibitor”: its document lacks “inhibitor”');
    // Whole words only: "colon" is not found in "colonic".
    expect(termEvidenceVote(candidate('colonic'), [property('colon')]).keep).toBe(false);
  });

  it('reads the name, aliases and field values, never the field names', () => {
    expect(termEvidenceVote(candidate('x', ['Blue Dye 2']), [property('entity blue dye curated')]).keep).toBe(true);
    expect(termEvidenceVote(candidate('x'), [property('description')]).keep).toBe(false);
    expect(termEvidenceVote(candidate('x'), [property('source kind')]).keep).toBe(false);
  });

  it('combines votes by all or majority, and says who removed a candidate', () => {
    const v = (judge: string, keep: boolean): FilterVote => ({ entity: 'e1', judge, keep, reason: keep ? 'yes' : 'no' });
    expect(agreed([v('a', true), v('b', true), v('c', false)], 'all')).toBe(false);
    expect(agreed([v('a', true), v('b', true), v('c', false)], 'majority')).toBe(true);
    expect(agreed([v('a', true), v('b', false)], 'majority')).toBe(false);
    expect(agreed([], 'majority')).toBe(false);
    expect(removalReason([v('a', true), v('b', false), v('c', false)])).toBe('b: no | c: no');
  });
});

describe('the deterministic extractor', () => {
  const description = 'A membrane transporter of bile acids, highly expressed in the terminal ileum. It belongs to the solute carrier family.';
  const document = { description, colour: 'deep teal', sku_id: 'XJ-2291', homepage: 'https://example.org/x', nested: { note: 'rare zymogen' } };
  // Document frequencies among 1,000 documents: "belongs" and "carrier" are everywhere, the rest rarer.
  const df = new Map(Object.entries({
    membrane: 40, transporter: 12, bile: 5, acids: 9, highly: 30, expressed: 45, terminal: 8, ileum: 3, belongs: 900, solute: 10, carrier: 60,
    family: 48, deep: 20, teal: 2, rare: 35, zymogen: 1,
  }));
  const extract = (count: number, avoid: string[] = [], others: string[] = []) =>
    extractProperties({ fields: fieldsOf(document), count, avoid, docs: 1000, df, others: others.map((text) => new Set(text.toLowerCase().split(' '))) });

  it('takes short fields whole and phrases around the rarest terms, rarest first, with field and offsets', () => {
    const got = extract(3);
    expect(got.map((p) => [p.text, p.field, p.whole])).toEqual([
      ['deep teal', 'colour', true],
      ['terminal ileum', 'description', false],
      ['transporter of bile acids', 'description', false],
    ]);
    for (const p of got) {
      expect(p.source).toBe('extractor');
      expect((p.field === 'colour' ? document.colour : description).slice(p.start!, p.end!)).toBe(p.text);
    }
  });

  it('passes over terms only this document has while others exist, common terms, identifier fields and links', () => {
    // Phrases stay within a clause and do not overlap or repeat a term; "zymogen" is in this document only,
    // "belongs" (90% of documents) and "carrier" (6%) are key to none.
    expect(extract(10).map((p) => p.text)).toEqual(['deep teal', 'terminal ileum', 'transporter of bile acids', 'solute carrier family', 'highly expressed']);
  });

  it('takes first, rarest first, what another relational answer still in the running shares', () => {
    // Another answer has "solute carrier family" and "highly expressed": both go before rarer phrases it lacks.
    expect(extract(2, [], ['deep sea solute carrier family highly expressed']).map((p) => p.text)).toEqual(['solute carrier family', 'highly expressed']);
    // It shares "terminal ileum" but not "deep teal": the first is taken, the second property is then the rarest left.
    expect(extract(2, [], ['terminal ileum', 'unrelated words']).map((p) => p.text)).toEqual(['terminal ileum', 'deep teal']);
    // No other answer shares anything: rarest first.
    expect(extract(2, [], ['unrelated words']).map((p) => p.text)).toEqual(['deep teal', 'terminal ileum']);
  });

  it('never takes a phrase naming an answer: it narrows to the rare term, and skips a field that names one', () => {
    expect(extract(4, ['of bile', 'teal']).map((p) => p.text)).toEqual(['terminal ileum', 'bile acids', 'solute carrier family', 'transporter']);
  });
});

describe('placing a quote', () => {
  it('finds the first field holding it verbatim, or gives nulls', () => {
    const fields = fieldsOf({ title: 'Tent', reviews: [{ text: 'Dry all night, light to carry' }] });
    expect(locateQuote(fields, ' light to carry ')).toEqual({ field: 'reviews[0].text', start: 15, end: 29 });
    expect(locateQuote(fields, 'heavy to carry')).toEqual({ field: null, start: null, end: null });
  });

  it('reads past a quoted "label: " of the flattened document, and past case', () => {
    const fields = fieldsOf({ title: 'Tent', description: 'Two vestibules and a taped rainfly' });
    expect(locateQuote(fields, '- description: Two vestibules')).toEqual({ field: 'description', start: 0, end: 14 });
    expect(locateQuote(fields, 'A TAPED RAINFLY')).toEqual({ field: 'description', start: 19, end: 34 });
  });
});
