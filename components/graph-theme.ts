import type cytoscape from 'cytoscape';

/**
 * Cytoscape draws on a canvas and cannot read the page's CSS variables, so the dark theme's label, edge and
 * border colours are laid over the light stylesheet here. Type colours stay the same in both themes.
 */
export const DARK_GRAPH_STYLE: cytoscape.StylesheetJson = [
  { selector: 'node', style: { color: '#e2e8f0' } },
  { selector: 'node[center = 1]', style: { 'border-color': '#f8fafc' } },
  { selector: 'node[stub = 1]', style: { 'background-color': '#475569', color: '#e2e8f0' } },
  { selector: 'node:selected', style: { 'border-color': '#f8fafc' } },
  { selector: 'edge', style: { 'line-color': '#64748b', 'target-arrow-color': '#64748b', color: '#cbd5e1' } },
  { selector: 'edge.highlight', style: { 'line-color': '#f59e0b', 'target-arrow-color': '#f59e0b' } },
  { selector: 'node.highlight', style: { 'border-color': '#f59e0b' } },
  { selector: 'node.group', style: { 'background-color': '#1e293b', 'border-color': '#475569', color: '#e2e8f0' } },
  { selector: 'node.hover, node.focus, node.highlight, node:selected', style: { 'text-outline-color': '#0f172a' } },
  { selector: 'edge.labelled, edge.hover', style: { 'text-background-color': '#0f172a' } },
];

/** The background of an exported picture, matching the theme its labels were drawn for. */
export const graphExportBackground = (dark: boolean) => (dark ? '#0f172a' : 'white');
