/**
 * An entity document as the text fields a passage can be marked in. A span names its field by path
 * (`description`, `features`, `reviews[2].text`) and its offsets count within that field's text, so a
 * span stays meaningful whatever the document's shape.
 */

export interface DocField {
  /** Where the text sits in the document: keys joined with dots, list positions in brackets. */
  path: string;
  /** The path as a reader sees it: "reviews 3 · text". */
  label: string;
  text: string;
}

/** Beyond this depth values are left out, as the document view and the retriever text do. */
const MAX_DEPTH = 8;

const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
const words = (key: string) => key.replace(/_/g, ' ');

/** Every text of the document, in its field order. A list of plain values is one field, joined by ", ". */
export function documentFields(document: Record<string, unknown>): DocField[] {
  const fields: DocField[] = [];
  const walk = (value: unknown, path: string, label: string, depth: number) => {
    if (isEmpty(value) || depth > MAX_DEPTH) return;
    if (Array.isArray(value)) {
      const items = value.filter((v) => !isEmpty(v));
      if (items.every((v) => typeof v !== 'object')) fields.push({ path, label, text: items.map(String).join(', ') });
      else items.forEach((item, i) => walk(item, `${path}[${i}]`, `${label} ${i + 1}`, depth + 1));
    } else if (typeof value === 'object') {
      for (const [key, v] of Object.entries(value as Record<string, unknown>)) walk(v, `${path}.${key}`, `${label} · ${words(key)}`, depth + 1);
    } else {
      fields.push({ path, label, text: String(value) });
    }
  };
  for (const [key, value] of Object.entries(document)) walk(value, key, words(key), 0);
  return fields;
}

export interface Segment {
  text: string;
  marked: boolean;
}

/** The text cut where marked ranges begin and end; overlapping ranges mark their union. */
export function segments(text: string, ranges: readonly { start: number; end: number }[]): Segment[] {
  const cuts = new Set([0, text.length]);
  for (const r of ranges) {
    cuts.add(Math.max(0, Math.min(text.length, r.start)));
    cuts.add(Math.max(0, Math.min(text.length, r.end)));
  }
  const points = [...cuts].sort((a, b) => a - b);
  const out: Segment[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const [from, to] = [points[i]!, points[i + 1]!];
    if (from === to) continue;
    out.push({ text: text.slice(from, to), marked: ranges.some((r) => r.start <= from && r.end >= to) });
  }
  return out;
}

/** A selection's offsets narrowed to leave out the whitespace at its ends; null when nothing is left. */
export function trimRange(text: string, start: number, end: number): { start: number; end: number } | null {
  let s = Math.max(0, start);
  let e = Math.min(text.length, end);
  while (s < e && /\s/.test(text[s]!)) s++;
  while (e > s && /\s/.test(text[e - 1]!)) e--;
  return e > s ? { start: s, end: e } : null;
}
