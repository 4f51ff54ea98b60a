import { describe, expect, it } from 'vitest';
import { checkPageId, checkPageParam, checkPageQuery, withoutParams } from '../../lib/http/page-query';
import { tokenTextSchema } from '../../lib/studies/tokens';
import { graphPageSchema, metapathsPageSchema, searchPageSchema } from '../../lib/kb/explorer-params';

const back = { href: '/kb/demo/search', label: 'Search' };

describe('page parameters', () => {
  it('refuses what the API refuses, in its words, and links back without the bad parameters', () => {
    const checked = checkPageQuery(graphPageSchema, '/kb/demo/graph', { entity: '12', hops: '9', dir: 'up', layout: 'cose', rel: ['cites', ''] },
      { arrayKeys: ['rel', 'expand'], backLabel: 'Back' });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.problem.message).toBe('Invalid query: hops: must be at most 3; rel.1: must not be empty; dir: must be one of both, out, in');
    expect(checked.problem.problems.map((p) => p.field)).toEqual(['hops', 'rel.1', 'dir']);
    expect(checked.problem.back.href).toBe('/kb/demo/graph?entity=12&layout=cose');
  });

  it('reads good parameters with their defaults, repeated ones as lists', () => {
    const checked = checkPageQuery(graphPageSchema, '/kb/demo/graph', { entity: '12', rel: 'cites', expand: ['3', '4'] }, { arrayKeys: ['rel', 'expand'], backLabel: '' });
    expect(checked).toEqual({ ok: true, value: { entity: 12, hops: 1, rel: ['cites'], dir: 'both', budget: 500, layout: 'concentric', expand: [3, 4] } });
    expect(checkPageQuery(searchPageSchema, '/s', {}, { arrayKeys: ['type'], backLabel: '' })).toEqual({ ok: true, value: { type: [], page: 1 } });
  });

  it('refuses text the database cannot hold before the schema sees it', () => {
    const checked = checkPageQuery(metapathsPageSchema, '/m', { q: 'a\u0000b' }, { arrayKeys: ['step', 'step2'], backLabel: '' });
    expect(!checked.ok && checked.problem.message).toBe('Invalid query: q: must not contain the NUL character (U+0000)');
    const step = checkPageQuery(metapathsPageSchema, '/m', { start: '4', step: 'sideways~x~y' }, { arrayKeys: ['step', 'step2'], backLabel: '' });
    expect(!step.ok && step.problem.back.href).toBe('/m?start=4');
  });

  it('says what is wrong with an id in the path once', () => {
    expect(checkPageId('abc', 'run id', back)).toEqual({ ok: false, problem: { message: 'Invalid run id: must be a positive integer', problems: [], back } });
    expect(checkPageId('7', 'run id', back)).toEqual({ ok: true, value: 7 });
    expect(checkPageId('99999999999', 'campaign id', back)).toEqual({ ok: false, problem: { message: 'Invalid campaign id: must be at most 2147483647', problems: [], back } });
  });

  it('says what is wrong with a link token in the path', () => {
    expect(checkPageParam(tokenTextSchema, 'not-a-link', 'study link', back))
      .toEqual({ ok: false, problem: { message: 'Invalid study link: must be 32 letters, digits, “-” or “_”', problems: [], back } });
    expect(checkPageParam(tokenTextSchema, 'a'.repeat(32), 'study link', back)).toEqual({ ok: true, value: 'a'.repeat(32) });
  });

  it('drops only the named parameters, every value of them', () => {
    expect(withoutParams('/p', { a: ['1', '2'], b: '3', c: undefined }, ['b'])).toBe('/p?a=1&a=2');
    expect(withoutParams('/p', { b: '3' }, ['b'])).toBe('/p');
  });
});
