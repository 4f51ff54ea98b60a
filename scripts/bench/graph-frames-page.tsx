// The page the graph-frames benchmark opens: the product's GraphCanvas drawing a synthetic graph
// (bundled with esbuild into a static file; never part of the app). Query: ?nodes=N&edges=M&renderer=canvas|webgl
import { createRoot } from 'react-dom/client';
import { GraphCanvas, type CanvasEdge, type CanvasNode } from '@/components/graph-canvas';

const TYPES = ['author', 'field', 'institution', 'paper', 'venue'];
const RELATIONS = ['cites', 'writes', 'has_field', 'affiliated_with', 'published_in'];

/** A deterministic graph: node 0 the centre, each node joined to an earlier one (connected), then random edges. */
function syntheticGraph(nodeCount: number, edgeCount: number): { nodes: CanvasNode[]; edges: CanvasEdge[] } {
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
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
createRoot(document.getElementById('root')!).render(
  <GraphCanvas nodes={graph.nodes} edges={graph.edges} layout="concentric" renderer={renderer} testId="graph-canvas"
    label="Synthetic graph" className="bench-canvas" />,
);
