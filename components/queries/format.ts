/** Number formats shared by the query-set pages; dates are `components/when.tsx`. */
export const fmtCount = (n: number) => n.toLocaleString('en');

/** Metric means and per-query scores, which lie in [0, 1]. */
export const fmtScore = (x: number) => x.toFixed(3);

export const fmtPercent = (x: number) => `${(100 * x).toFixed(1)}%`;

export const fmtPValue = (p: number) => (p < 0.001 ? '< 0.001' : p.toFixed(3));

export const splitLabel = (split: string | null) => split ?? '(no split)';
