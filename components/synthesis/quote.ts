import type { TextProperty } from '@/lib/synthesis/types';
import { documentFields } from '@/lib/kb/document-fields';

export interface QuoteContext {
  /** The field as a reader sees it ("reviews 3 · text"). */
  label: string;
  before: string;
  quote: string;
  after: string;
}

const CONTEXT_CHARS = 80;

/**
 * The quoted span of a property in its document field (fields and offsets as the pipeline and the authoring
 * workspace read them), with some text either side; null when the property was not found verbatim or the
 * offsets do not fit the field (the document changed since).
 */
export function quoteContext(document: Record<string, unknown> | null, p: TextProperty): QuoteContext | null {
  if (!document || p.field === null || p.start === null || p.end === null) return null;
  const field = documentFields(document).find((f) => f.path === p.field);
  if (!field || p.start < 0 || p.end > field.text.length || p.end <= p.start) return null;
  const { text } = field;
  const from = Math.max(0, p.start - CONTEXT_CHARS);
  const to = Math.min(text.length, p.end + CONTEXT_CHARS);
  return {
    label: field.label,
    before: (from > 0 ? '…' : '') + text.slice(from, p.start),
    quote: text.slice(p.start, p.end),
    after: text.slice(p.end, to) + (to < text.length ? '…' : ''),
  };
}
