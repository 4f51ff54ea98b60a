import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { GraphNodeList } from '../../components/graph-node-list';
import { NODE_LIST_FIRST } from '../../lib/kb/graph-view';

const nodes = Array.from({ length: 100 }, (_, i) => ({ id: i + 1, name: `Node ${String(100 - i).padStart(3, '0')}`, type: i % 2 ? 'paper' : 'author', depth: i === 50 ? 0 : 1 + (i % 2) }));
const render = (complete: boolean) => renderToStaticMarkup(
  <GraphNodeList nodes={nodes} types={['author', 'paper']} selected={3} onSelect={() => undefined} complete={complete} onComplete={() => undefined} />);
const rows = (html: string) => [...html.matchAll(/<span class="min-w-0 truncate">([^<]*)<\/span>/g)].map((m) => m[1]);

describe('the graph page\'s node list', () => {
  it('holds the first rows, centre first, and a button for the rest until the canvas has drawn', () => {
    const html = render(false);
    const listed = rows(html);
    expect(listed).toHaveLength(NODE_LIST_FIRST);
    expect(listed[0]).toBe('Node 050');
    // Then by hop, and by name within a hop.
    expect(listed.slice(1, 4)).toEqual(['Node 002', 'Node 004', 'Node 006']);
    expect(html).toContain(`List ${100 - NODE_LIST_FIRST} more`);
    expect(html).toContain('aria-busy="true"');
  });

  it('lists every node once complete, the selected one pressed', () => {
    const html = render(true);
    expect(rows(html)).toHaveLength(100);
    expect(html).not.toContain('graph-node-list-rest');
    expect(html).toContain('aria-busy="false"');
    expect(html.match(/aria-pressed="true"/g)).toHaveLength(1);
  });
});
