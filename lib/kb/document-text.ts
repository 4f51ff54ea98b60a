/**
 * Turns an entity's structured document into the plain text a retriever reads,
 * in the spirit of STaRK's `get_doc_info`:
 *
 *   - name: Trailmark Ridgeline 2-Person Tent
 *   - type: product
 *   - price: 189.99
 *   - features: Two vestibules, A taped rainfly
 *   - dimensions:
 *     - length: 210
 *   - reviews:
 *     1. rating: 5; summary: Great tent
 *
 * It is generic over any JSON-like document, keeps the document's field order,
 * skips empty values and never throws.
 */

/** Beyond this depth values are dropped: guards the stack against pathological input. */
const MAX_DEPTH = 32;
const INDENT = '  ';

type Plain = Record<string, unknown>;

export function flattenDocument(name: string, type: string, document: Record<string, unknown>): string {
  const title = textOf(name);
  const kind = textOf(type);
  const header = [`- name: ${title}`, `- type: ${kind}`];
  // A document field repeating the header (e.g. a `name` key) would only add noise.
  const skipKey = (key: string, text: string) => (key === 'name' && text === title) || (key === 'type' && text === kind);
  try {
    const doc = isPlainObject(document) ? document : {};
    return [...header, ...renderFields(doc, 0, new Set([doc]), skipKey)].join('\n');
  } catch {
    // Exotic objects (revoked proxies, throwing iterators) must not break indexing.
    return header.join('\n');
  }
}

/** One `- key: value` line per field, or a `- key:` line followed by indented children. */
function renderFields(
  obj: Plain,
  depth: number,
  ancestors: Set<object>,
  skipKey: (key: string, text: string) => boolean = () => false,
): string[] {
  const pad = INDENT.repeat(depth);
  const lines: string[] = [];
  for (const [key, value] of safeEntries(obj)) {
    const label = `${pad}- ${fieldLabel(key)}:`;
    if (isScalarOrScalarList(value)) {
      const text = renderInline(value, depth + 1, ancestors);
      if (text !== undefined && !skipKey(key, text)) lines.push(`${label} ${text}`);
    } else {
      const children = renderBlock(value, depth + 1, ancestors);
      if (children.length > 0) lines.push(label, ...children);
    }
  }
  return lines;
}

/** Indented lines for an object (nested fields) or a list holding objects/lists (numbered items). */
function renderBlock(value: unknown, depth: number, ancestors: Set<object>): string[] {
  if (depth > MAX_DEPTH || !isContainer(value) || ancestors.has(value)) return [];
  const inner = new Set(ancestors).add(value);
  if (!Array.isArray(value)) return renderFields(value, depth, inner);
  const pad = INDENT.repeat(depth);
  const lines: string[] = [];
  for (const item of value) {
    const text = renderInline(item, depth + 1, inner);
    if (text !== undefined) lines.push(`${pad}${lines.length + 1}. ${text}`);
  }
  return lines;
}

/**
 * Single-line rendering: scalars as written, lists joined with ", ",
 * objects as `key: value` pairs joined with "; ". Nested containers are
 * bracketed so their boundaries stay readable. Returns undefined when empty.
 */
function renderInline(value: unknown, depth: number, ancestors: Set<object>): string | undefined {
  const scalar = renderScalar(value);
  if (scalar !== null) return scalar;
  if (depth > MAX_DEPTH || !isContainer(value) || ancestors.has(value)) return undefined;
  const inner = new Set(ancestors).add(value);
  const nested = (v: unknown) => {
    const text = renderInline(v, depth + 1, inner);
    return text !== undefined && isContainer(v) ? wrap(v, text) : text;
  };
  const parts = Array.isArray(value)
    ? value.map(nested)
    : safeEntries(value).map(([k, v]) => {
        const text = nested(v);
        return text === undefined ? undefined : `${fieldLabel(k)}: ${text}`;
      });
  const kept = parts.filter((p): p is string => p !== undefined);
  if (kept.length === 0) return undefined;
  return kept.join(Array.isArray(value) ? ', ' : '; ');
}

/**
 * A scalar's text, `undefined` for an empty or unrenderable scalar, and `null`
 * when the value is not a scalar at all (so callers can tell the two apart).
 */
function renderScalar(value: unknown): string | undefined | null {
  switch (typeof value) {
    case 'string': {
      const text = clean(value);
      return text === '' ? undefined : text;
    }
    case 'number':
      return Number.isFinite(value) ? String(value) : undefined;
    case 'bigint':
    case 'boolean':
      return String(value);
    case 'object':
      if (value === null) return undefined;
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
      return null;
    default:
      // undefined, functions and symbols carry no document content.
      return undefined;
  }
}

function wrap(value: object, text: string): string {
  return Array.isArray(value) ? `[${text}]` : `(${text})`;
}

function isScalarOrScalarList(value: unknown): boolean {
  if (Array.isArray(value)) return value.every((v) => renderScalar(v) !== null);
  return renderScalar(value) !== null;
}

function isContainer(value: unknown): value is Plain | unknown[] {
  return typeof value === 'object' && value !== null && !(value instanceof Date);
}

function isPlainObject(value: unknown): value is Plain {
  return isContainer(value) && !Array.isArray(value);
}

/** Object.entries can throw on hostile objects (throwing getters, revoked proxies). */
function safeEntries(obj: object): [string, unknown][] {
  try {
    return Object.entries(obj);
  } catch {
    return [];
  }
}

/** Header text for a name or type, tolerating non-string values from untyped callers. */
function textOf(value: unknown): string {
  return renderScalar(value) ?? '';
}

/** `in_stock` reads as "in stock". */
function fieldLabel(key: string): string {
  return clean(key.replace(/_/g, ' '));
}

/** Collapses whitespace so every field stays on one line. */
function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
