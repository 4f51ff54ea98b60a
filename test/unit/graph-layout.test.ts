import { describe, expect, it } from 'vitest';
import { groupedPositions, groupLabel, groupNodes, LABEL_ALL_NODES, labelledNodes, pathPositions, reach, type LayoutEdge, type LayoutNode } from '@/lib/kb/graph-layout';

/** A hub "h" with 6 products by has_brand (out), 3 stores by sold_at (in), a "+40 more" stub of has_brand, and one product's colour. */
function hub(): { nodes: LayoutNode[]; edges: LayoutEdge[] } {
  const nodes: LayoutNode[] = [{ id: 'h', type: 'brand', center: true }];
  const edges: LayoutEdge[] = [];
  for (let i = 0; i < 6; i++) { nodes.push({ id: `p${i}`, type: 'product' }); edges.push({ source: 'h', target: `p${i}`, label: 'has_brand' }); }
  for (let i = 0; i < 3; i++) { nodes.push({ id: `s${i}`, type: 'store' }); edges.push({ source: `s${i}`, target: 'h', label: 'sold_at' }); }
  nodes.push({ id: 'stub0', type: '', stub: true });
  edges.push({ source: 'h', target: 'stub0', label: 'has_brand' });
  nodes.push({ id: 'c0', type: 'color' });
  edges.push({ source: 'p0', target: 'c0', label: 'has_color' });
  return { nodes, edges };
}

type Box = { left: number; right: number; top: number; bottom: number };
const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

describe('reach', () => {
  it('records depth and the relation and direction a node was first reached by', () => {
    const r = reach(hub().nodes, hub().edges);
    expect(r.get('h')).toMatchObject({ depth: 0, parent: null });
    expect(r.get('p1')).toEqual({ depth: 1, parent: 'h', relation: 'has_brand', direction: 'out' });
    expect(r.get('s2')).toEqual({ depth: 1, parent: 'h', relation: 'sold_at', direction: 'in' });
    expect(r.get('c0')).toEqual({ depth: 2, parent: 'p0', relation: 'has_color', direction: 'out' });
  });

  it('puts nodes no centre reaches one past the farthest', () => {
    const { nodes, edges } = hub();
    nodes.push({ id: 'lonely', type: 'product' });
    expect(reach(nodes, edges).get('lonely')).toMatchObject({ depth: 3, parent: null });
  });
});

describe('groupNodes', () => {
  it('groups by depth, relation, direction and type, largest first, and the stub joins its relation', () => {
    const groups = groupNodes(hub().nodes, hub().edges);
    expect(groups.map((g) => [g.depth, g.relation, g.direction, g.type, g.members.length, g.shown])).toEqual([
      [1, 'has_brand', 'out', 'product', 7, 6],
      [1, 'sold_at', 'in', 'store', 3, 3],
      [2, 'has_color', 'out', 'color', 1, 1],
    ]);
    expect(groups[0]!.members).toContain('stub0');
    expect(groups.flatMap((g) => g.members)).not.toContain('h');
  });

  it('gives a stub with no group of its relation a group of its own', () => {
    const { nodes, edges } = hub();
    nodes.push({ id: 'stub1', type: '', stub: true });
    edges.push({ source: 'stub1', target: 'h', label: 'made_by' });
    const own = groupNodes(nodes, edges).find((g) => g.members.includes('stub1'))!;
    expect(own).toMatchObject({ relation: 'made_by', direction: 'in', shown: 0, members: ['stub1'] });
    expect(groupLabel(own)).toBe('← made_by');
  });

  it('labels a group with its direction, type and count', () => {
    const [products, stores] = groupNodes(hub().nodes, hub().edges);
    expect(groupLabel(products!)).toBe('has_brand → product (6)');
    expect(groupLabel(stores!)).toBe('← sold_at store (3)');
  });
});

describe('groupedPositions', () => {
  it('places every node, the centre at the origin, and no two groups or cells overlap', () => {
    const { nodes, edges } = hub();
    for (let i = 0; i < 40; i++) { nodes.push({ id: `x${i}`, type: 'review' }); edges.push({ source: `x${i}`, target: 'h', label: 'about' }); }
    const groups = groupNodes(nodes, edges);
    const cell = { cellWidth: 100, cellHeight: 30 };
    const { positions: pos, boxes: drawn } = groupedPositions(nodes, edges, groups, cell);
    expect(pos.size).toBe(nodes.length);
    expect(pos.get('h')).toEqual({ x: 0, y: 0 });
    const boxes = groups.map((g) => {
      const ps = g.members.map((m) => pos.get(m)!);
      return {
        left: Math.min(...ps.map((p) => p.x)) - 50, right: Math.max(...ps.map((p) => p.x)) + 50,
        top: Math.min(...ps.map((p) => p.y)) - 15, bottom: Math.max(...ps.map((p) => p.y)) + 15,
      };
    });
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) expect(overlaps(boxes[i]!, boxes[j]!), `groups ${i} and ${j}`).toBe(false);
      // The centre node sits clear of every group.
      expect(overlaps(boxes[i]!, { left: -15, right: 15, top: -15, bottom: 15 })).toBe(false);
    }
    const cells = new Set([...pos.values()].map((p) => `${Math.round(p.x)},${Math.round(p.y)}`));
    expect(cells.size).toBe(nodes.length);
    // Each group's box is the one its members' cells fill: the canvas draws it behind them.
    expect([...drawn.keys()].sort()).toEqual(groups.map((g) => g.id).sort());
    groups.forEach((g, i) => {
      const box = drawn.get(g.id)!;
      expect(box.x - box.width / 2).toBeCloseTo(boxes[i]!.left);
      expect(box.y - box.height / 2).toBeCloseTo(boxes[i]!.top);
      expect(box.x + box.width / 2).toBeGreaterThanOrEqual(boxes[i]!.right - 1e-9);
      expect(box.y + box.height / 2).toBeGreaterThanOrEqual(boxes[i]!.bottom - 1e-9);
    });
  });

  it('puts deeper groups further out than the groups they hang off', () => {
    const { nodes, edges } = hub();
    const { positions: pos } = groupedPositions(nodes, edges, groupNodes(nodes, edges));
    const dist = (id: string) => Math.hypot(pos.get(id)!.x, pos.get(id)!.y);
    expect(dist('c0')).toBeGreaterThan(Math.max(...['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 's0'].map(dist)));
  });
});

describe('pathPositions', () => {
  it('runs every path left to right, the source alone on the left and the target alone on the right', () => {
    const paths = [['a', 'z'], ['a', 'm', 'z'], ['a', 'n', 'm2', 'z'], ['a', 'o', 'z']];
    const pos = pathPositions(paths, { hopWidth: 100 });
    expect(pos.get('a')!.x).toBe(0);
    expect(pos.get('z')!.x).toBe(300);
    for (const p of paths) {
      const xs = p.map((id) => pos.get(id)!.x);
      expect(xs).toEqual([...xs].sort((x, y) => x - y));
      expect(new Set(xs).size).toBe(xs.length);
    }
    expect(pos.get('m')!.x).toBe(150);
    expect(pos.get('n')!.x).toBe(100);
    expect(pos.get('m2')!.x).toBe(200);
    // m and o share a column, spread apart vertically around 0.
    expect(pos.get('m')!.y).toBe(-pos.get('o')!.y);
    expect(pos.get('m')!.y).not.toBe(0);
  });

  it('wraps a tall column into sub-columns', () => {
    const paths = Array.from({ length: 50 }, (_, i) => ['a', `m${i}`, 'z']);
    const pos = pathPositions(paths, { hopWidth: 400, maxRows: 20, rowHeight: 10, subColumnWidth: 30 });
    const middle = paths.map((p) => pos.get(p[1]!)!);
    expect(new Set(middle.map((p) => p.x)).size).toBe(3);
    expect(Math.max(...middle.map((p) => Math.abs(p.y)))).toBeLessThanOrEqual(10 * 9);
    // Around the middle column (x = 1 hop of 2), well clear of both ends.
    expect(middle.every((p) => Math.abs(p.x - 400) <= 30)).toBe(true);
    expect(pos.get('z')!.x).toBe(800);
  });
});

describe('labelledNodes', () => {
  it('labels every node of a small view', () => {
    const { nodes, edges } = hub();
    expect(labelledNodes(nodes, edges).size).toBe(nodes.length);
  });

  it('in a large view labels the centre, its neighbours, the focus and the hubs, not the rest', () => {
    const nodes: LayoutNode[] = [{ id: 'c', type: 't', center: true }];
    const edges: LayoutEdge[] = [];
    for (let i = 0; i < 5; i++) { nodes.push({ id: `n${i}`, type: 't' }); edges.push({ source: 'c', target: `n${i}`, label: 'r' }); }
    // n0 has 40 leaves two hops out; "far" is a hub of 4 leaves not next to the centre.
    for (let i = 0; i < LABEL_ALL_NODES + 10; i++) { nodes.push({ id: `l${i}`, type: 't' }); edges.push({ source: 'n0', target: `l${i}`, label: 'r' }); }
    nodes.push({ id: 'far', type: 't' });
    edges.push({ source: 'l0', target: 'far', label: 'r' });
    for (let i = 0; i < 4; i++) { nodes.push({ id: `f${i}`, type: 't' }); edges.push({ source: 'far', target: `f${i}`, label: 'r' }); }
    const labelled = labelledNodes(nodes, edges, ['l5']);
    for (const id of ['c', 'n0', 'n4', 'far', 'l5']) expect(labelled.has(id), id).toBe(true);
    expect(labelled.has('l7')).toBe(false);
    expect(labelled.has('f1')).toBe(false);
  });
});

describe('labelledNodes without neighbours', () => {
  it('keeps only the centres, the focus and the hubs (the paths view)', () => {
    const nodes: LayoutNode[] = [{ id: 'a', type: 't', center: true }, { id: 'z', type: 't', center: true }];
    const edges: LayoutEdge[] = [];
    for (let i = 0; i < LABEL_ALL_NODES + 5; i++) {
      nodes.push({ id: `m${i}`, type: 't' });
      edges.push({ source: 'a', target: `m${i}`, label: 'r' }, { source: `m${i}`, target: 'z', label: 'r' });
    }
    const labelled = labelledNodes(nodes, edges, ['m3'], { neighbours: false, hubs: 2 });
    expect([...labelled].sort()).toEqual(['a', 'm3', 'z']);
    expect(labelledNodes(nodes, edges).size).toBe(nodes.length);
  });
});
