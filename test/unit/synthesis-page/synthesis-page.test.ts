import { describe, expect, it } from 'vitest';
import { ApiError } from '@/components/queries/api';
import { quoteContext } from '@/components/synthesis/quote';
import { initialDraft, specBody, synthesisErrorsOf } from '@/components/synthesis/synthesis-draft';

describe('the synthesis form’s body', () => {
  const draft = { ...initialDraft(true), chosen: ['product -[also_bought]-> product'], querySet: 'syn-1', count: '20', seed: '7' };

  it('sends a preview of five without the set, and a job with it', () => {
    expect(specBody(draft, 'preview')).toEqual({ body: {
      templates: ['product -[also_bought]-> product'], count: 5, seed: 7, useLlm: true, agreement: 'all', maxAnswers: 20,
    } });
    expect(specBody({ ...draft, filterModels: ' a, b ', agreement: 'majority' }, 'job')).toEqual({ body: {
      querySet: 'syn-1', templates: ['product -[also_bought]-> product'], count: 20, seed: 7, useLlm: true, agreement: 'majority',
      maxAnswers: 20, filterModels: ['a', 'b'],
    } });
  });

  it('asks for every template within a range of answer-set sizes, and leaves filter models out without the LLM', () => {
    const body = specBody({ ...draft, mode: 'range', rangeMin: '2', rangeMax: '9', useLlm: false, filterModels: 'a' }, 'job');
    expect(body).toMatchObject({ body: { templates: { minAnswers: 2, maxAnswers: 9 }, useLlm: false } });
    expect('body' in body && 'filterModels' in body.body).toBe(false);
  });

  it('names each field that needs a change before sending', () => {
    const checked = specBody({ ...draft, chosen: [], querySet: 'no spaces!', count: '0', seed: '-1', maxAnswers: '1001', filterModels: 'a b' }, 'job');
    expect('errors' in checked && Object.keys(checked.errors).sort()).toEqual(['count', 'filterModels', 'maxAnswers', 'querySet', 'seed', 'templates']);
    const range = specBody({ ...draft, mode: 'range', rangeMin: '5', rangeMax: '3' }, 'job');
    expect('errors' in range && range.errors.templates).toMatch(/the first not above the second/);
    // A preview needs no set name and no count.
    expect(specBody({ ...draft, querySet: '', count: '' }, 'preview')).toHaveProperty('body');
  });

  it('puts the server’s refusals at their fields: the per-field details of a 400, a 409 at the set’s name', () => {
    expect(synthesisErrorsOf(new ApiError(400, 'Invalid body', [{ field: 'count', message: 'count must be at most 10000' }])))
      .toEqual({ count: 'count must be at most 10000' });
    expect(synthesisErrorsOf(new ApiError(409, 'Query set syn-1 already exists', undefined))).toEqual({ querySet: 'Query set syn-1 already exists' });
    expect(synthesisErrorsOf(new Error('network'))).toEqual({});
  });
});

describe('a property’s quote in its document field', () => {
  const document = { title: 'Lantern', reviews: [{ text: 'Bright and light, lasts a weekend on one charge.' }] };

  it('marks the span at the field path and offsets the pipeline recorded, with the field’s label', () => {
    const start = document.reviews[0]!.text.indexOf('lasts a weekend');
    expect(quoteContext(document, { text: 'lasts a weekend', field: 'reviews[0].text', start, end: start + 15, source: 'extractor' })).toEqual({
      label: 'reviews 1 · text', before: 'Bright and light, ', quote: 'lasts a weekend', after: ' on one charge.',
    });
  });

  it('cuts long fields around the quote', () => {
    const long = { description: `${'a'.repeat(200)}QUOTE${'b'.repeat(200)}` };
    const context = quoteContext(long, { text: 'QUOTE', field: 'description', start: 200, end: 205, source: 'llm' })!;
    expect(context.quote).toBe('QUOTE');
    expect(context.before).toBe(`…${'a'.repeat(80)}`);
    expect(context.after).toBe(`${'b'.repeat(80)}…`);
  });

  it('shows nothing in place when the property was not found verbatim or the offsets no longer fit', () => {
    expect(quoteContext(document, { text: 'x', field: null, start: null, end: null, source: 'llm' })).toBeNull();
    expect(quoteContext(document, { text: 'x', field: 'title', start: 3, end: 99, source: 'extractor' })).toBeNull();
    expect(quoteContext(document, { text: 'x', field: 'nowhere', start: 0, end: 1, source: 'extractor' })).toBeNull();
    expect(quoteContext(null, { text: 'x', field: 'title', start: 0, end: 1, source: 'extractor' })).toBeNull();
  });
});
