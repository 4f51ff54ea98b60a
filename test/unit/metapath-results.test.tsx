import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MetapathResults } from '../../components/metapath-results';
import type { MetapathsResult } from '../../lib/kb/metapath';
import { countLabel } from '../../lib/kb/metapath-count';

const item = { id: 7, name: 'Paper seven', type: 'paper', degree: 3 };
const render = (result: MetapathsResult) => renderToStaticMarkup(
  <MetapathResults kbSlug="kb" type="paper" result={result} loading={false} q="" page={1} pageSize={25}
    onSearch={() => undefined} onPage={() => undefined} onCountExactly={() => undefined} />);
const total = (html: string) => /data-testid="metapath-total">([^<]*)</.exec(html)?.[1];

describe('metapath counts as shown', () => {
  it('labels a lower bound with a plus and an exact count without', () => {
    expect(countLabel(10001, true)).toBe('10,001+');
    expect(countLabel(1204)).toBe('1,204');
    expect(countLabel(0, undefined)).toBe('0');
  });

  it('offers "Count exactly" only when a count is a lower bound', () => {
    const exact = render({ branches: [{ start: 1, steps: [{ reached: 40 }, { reached: 30 }] }], total: 30, items: [item] });
    expect(total(exact)).toBe('30');
    expect(exact).not.toContain('Count exactly');

    const bounded = render({ branches: [{ start: 1, steps: [{ reached: 32367 }, { reached: 10001, atLeast: true }] }], total: 10001, totalAtLeast: true, items: [item] });
    expect(total(bounded)).toBe('10,001+');
    expect(bounded).toContain('data-testid="metapath-bounded"');
    expect(bounded).toContain('Count exactly');

  });
});
