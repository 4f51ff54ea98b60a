import { fmtPercent } from '../queries/format';

/** Formats of the results pages; a share or statistic with no data shows as a dash. */
export const fmtShare = (x: number | null) => (x === null ? '—' : fmtPercent(x));
export const fmtStat = (x: number | null, digits = 2) => (x === null ? '—' : x.toFixed(digits));

/** One colour per source, in the order the report lists them (sorted by name), in the charts. */
const PALETTE = ['#2563eb', '#d97706', '#16a34a', '#7c3aed', '#dc2626', '#0891b2', '#db2777', '#65a30d', '#475569', '#ca8a04'];
export const sourceColour = (index: number) => PALETTE[index % PALETTE.length]!;
