import type { TextProperty } from '@/lib/synthesis/types';

/** The text at a dotted document path ("details.indication", "features.2"), or null when it is not text. */
export function fieldText(document: Record<string, unknown>, path: string): string | null {
  let value: unknown = document;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return null;
    value = (value as Record<string, unknown>)[part];
  }
  return typeof value === 'string' ? value : null;
}

export interface QuoteContext {
  before: string;
  quote: string;
  after: string;
}

const CONTEXT_CHARS = 80;

/**
 * The quoted span of a property in its document field, with some text either side; null when the property
 * was not found verbatim or the offsets do not fit the field (the document changed since).
 */
export function quoteContext(document: Record<string, unknown> | null, p: TextProperty): QuoteContext | null {
  if (!document || p.field === null || p.start === null || p.end === null) return null;
  const text = fieldText(document, p.field);
  if (text === null || p.start < 0 || p.end > text.length || p.end <= p.start) return null;
  const from = Math.max(0, p.start - CONTEXT_CHARS);
  const to = Math.min(text.length, p.end + CONTEXT_CHARS);
  return {
    before: (from > 0 ? '…' : '') + text.slice(from, p.start),
    quote: text.slice(p.start, p.end),
    after: text.slice(p.end, to) + (to < text.length ? '…' : ''),
  };
}
