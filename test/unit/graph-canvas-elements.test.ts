import { describe, expect, it } from 'vitest';
import { GRAPH_STYLE, planCanvas, type CanvasEdge, type CanvasNode } from '@/components/graph-canvas-elements';

/** A centre with 40 papers citing it (one with a long title) and a "+N more" stub. */
function view(): { nodes: CanvasNode[]; edges: CanvasEdge[] } {
  const nodes: CanvasNode[] = [{ id: 'c', label: 'Centre', type: 'paper', center: true }];
  const edges: CanvasEdge[] = [];
  for (let i = 0; i < 40; i++) {
    nodes.push({ id: `p${i}`, label: i === 0 ? 'A very long paper title that goes on well past what a label can hold' : `Paper ${i}`, type: 'paper' });
    edges.push({ id: `e${i}`, source: `p${i}`, target: 'c', label: 'cites' });
  }
  nodes.push({ id: 'stub', label: '+1,234 more', type: '', stub: true });
  edges.push({ id: 'stub-edge', source: 'stub', target: 'c', label: 'cites' });
  return { nodes, edges };
}

const byId = (plan: ReturnType<typeof planCanvas>) => new Map(plan.elements.map((e) => [e.data.id!, e]));
/** A stylesheet rule's properties (Cytoscape's JSON rules hold them under `style` or `css`). */
const properties = (rule: (typeof GRAPH_STYLE)[number]) => ('style' in rule ? rule.style : rule.css) as Record<string, unknown>;

describe('planCanvas', () => {
  it('draws each group as a plain box behind its members, sized and placed around their cells', () => {
    const { nodes, edges } = view();
    const plan = planCanvas(nodes, edges, ['paper'], 'concentric');
    const groups = plan.elements.filter((e) => e.classes === 'group');
    expect(groups).toHaveLength(1);
    const box = groups[0]!;
    // Not a compound parent: members name their group in data, no element has a parent.
    expect(plan.elements.some((e) => e.data.parent !== undefined)).toBe(false);
    expect(box.data.label).toBe('← cites paper (40)');
    const members = plan.elements.filter((e) => e.data.group === box.data.id);
    expect(members).toHaveLength(41);
    const at = plan.positions!;
    const centre = at.get(box.data.id!)!;
    for (const m of members) {
      const p = at.get(m.data.id!)!;
      expect(Math.abs(p.x - centre.x)).toBeLessThan(box.data.width / 2);
      expect(Math.abs(p.y - centre.y)).toBeLessThan(box.data.height / 2);
    }
    // The box is drawn beneath edges and nodes, and cannot be picked up.
    const style = properties(GRAPH_STYLE.find((s) => s.selector === 'node.group')!);
    expect(style['z-compound-depth']).toBe('bottom');
    expect(box.grabbable).toBe(false);
    expect(box.selectable).toBe(false);
  });

  it('cuts long names itself (no Cytoscape ellipsis) and keeps the full name as the label', () => {
    const { nodes, edges } = view();
    const long = byId(planCanvas(nodes, edges, ['paper'], 'concentric')).get('p0')!;
    expect(long.data.label).toBe(nodes[1]!.label);
    // At most 28 and 48 characters with the "…", a space before it trimmed.
    expect(long.data.short.length).toBeGreaterThan(20);
    expect(long.data.short.length).toBeLessThanOrEqual(28);
    expect(long.data.short.endsWith('…')).toBe(true);
    expect(long.data.long.length).toBeGreaterThan(40);
    expect(long.data.long.length).toBeLessThanOrEqual(48);
    expect(nodes[1]!.label.startsWith(long.data.short.slice(0, -1))).toBe(true);
    expect(byId(planCanvas(nodes, edges, ['paper'], 'concentric')).get('p1')!.data.short).toBe('Paper 1');
    for (const rule of GRAPH_STYLE) expect(properties(rule)['text-wrap']).toBeUndefined();
  });

  it('sizes stubs from their text in data, with no style function to run per element', () => {
    const { nodes, edges } = view();
    expect(byId(planCanvas(nodes, edges, ['paper'], 'concentric')).get('stub')!.data.width).toBe('+1,234 more'.length * 5);
    for (const rule of GRAPH_STYLE) for (const value of Object.values(properties(rule))) expect(typeof value).not.toBe('function');
  });

  it('draws no groups without a centre or with another layout', () => {
    const { nodes, edges } = view();
    expect(planCanvas(nodes, edges, ['paper'], 'cose').elements.filter((e) => e.classes === 'group')).toEqual([]);
    expect(planCanvas(nodes.map((n) => ({ ...n, center: false })), edges, ['paper'], 'concentric').positions).toBeNull();
  });
});
