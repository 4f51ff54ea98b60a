// The page the graph-frames benchmark opens: the product's GraphCanvas drawing a synthetic graph
// (bundled with esbuild into a static file; never part of the app).
// Query: ?nodes=N&edges=M&renderer=canvas|webgl&moving=full|no-edges|texture
import { createRoot } from 'react-dom/client';
import { GraphCanvas, type CanvasEdge, type CanvasNode, type MovingDraw } from '@/components/graph-canvas';

const TYPES = ['author', 'field', 'institution', 'paper', 'venue'];
const RELATIONS = ['cites', 'writes', 'has_field', 'affiliated_with', 'published_in'];

/** A deterministic graph: node 0 the centre, each node joined to an earlier one (connected), then random edges. */
function syntheticGraph(nodeCount: number, edgeCount: number): { nodes: CanvasNode[]; edges: CanvasEdge[] } {
  // mulberry32: 32-bit integer arithmetic, so the sequence does not collapse as a float LCG's would.
  let seed = 42;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const nodes: CanvasNode[] = Array.from({ length: nodeCount }, (_, i) => ({
    id: String(i), label: `${TYPES[i % TYPES.length]} ${i}`, type: TYPES[i % TYPES.length]!, center: i === 0,
  }));
  const edges: CanvasEdge[] = [];
  const seen = new Set<string>();
  const add = (s: number, t: number) => {
    const relation = RELATIONS[(s + t) % RELATIONS.length]!;
    const id = `${s}-${relation}-${t}`;
    if (s === t || seen.has(id)) return;
    seen.add(id);
    edges.push({ id, source: String(s), target: String(t), label: relation });
  };
  // The first 60 nodes hang off the centre, the rest off a random earlier node: a few hubs, several hops deep.
  for (let i = 1; i < nodeCount; i++) add(i < 60 ? 0 : Math.floor(random() * i), i);
  while (edges.length < edgeCount) add(Math.floor(random() * nodeCount), Math.floor(random() * nodeCount));
  return { nodes, edges };
}

const q = new URLSearchParams(window.location.search);
const graph = syntheticGraph(Number(q.get('nodes') ?? 3000), Number(q.get('edges') ?? 10000));
const renderer = q.get('renderer') === 'webgl' ? 'webgl' : 'canvas';
const moving = (q.get('moving') ?? undefined) as MovingDraw | undefined;
// ?layout=grid: the nodes on a plain grid, without the grouped layout's compound boxes.
const positions = q.get('layout') === 'grid'
  ? new Map(graph.nodes.map((n, i) => [n.id, { x: (i % 60) * 40, y: Math.floor(i / 60) * 40 }]))
  : undefined;
createRoot(document.getElementById('root')!).render(
  <GraphCanvas nodes={graph.nodes} edges={graph.edges} layout="concentric" positions={positions} renderer={renderer} moving={moving} testId="graph-canvas"
    label="Synthetic graph" className="bench-canvas" />,
);
