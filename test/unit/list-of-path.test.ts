import { describe, expect, it } from 'vitest';
import { listOfPath } from '../../lib/http/list-of-path';

describe('the way back from a page that found nothing', () => {
  it('leads to the list the record would be in', () => {
    expect(listOfPath('/kb/demo/campaigns/7')).toEqual({ href: '/kb/demo/campaigns', label: 'Campaigns of this knowledge base' });
    expect(listOfPath('/kb/demo/campaigns/7/work/12')).toEqual({ href: '/kb/demo/campaigns', label: 'Campaigns of this knowledge base' });
    expect(listOfPath('/kb/demo/studies/3/results')).toEqual({ href: '/kb/demo/studies', label: 'Studies of this knowledge base' });
    expect(listOfPath('/kb/demo/queries/set-a/runs/9')).toEqual({ href: '/kb/demo/queries', label: 'Query sets of this knowledge base' });
    expect(listOfPath('/kb/demo/llm-calls/5')).toEqual({ href: '/kb/demo/synthesize', label: 'Synthesis of this knowledge base' });
    expect(listOfPath('/imports/4')).toEqual({ href: '/admin/import', label: 'Imports' });
  });

  it('leads to the knowledge base from its other pages, and nowhere from outside one', () => {
    expect(listOfPath('/kb/demo/nowhere')).toEqual({ href: '/kb/demo', label: 'This knowledge base' });
    expect(listOfPath('/kb/demo')).toBeNull();
    expect(listOfPath('/rate/abc')).toBeNull();
    expect(listOfPath('/')).toBeNull();
  });
});
