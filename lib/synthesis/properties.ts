import { findLeaks } from '../authoring/leak';
import { z } from 'zod';
import type { Queryable } from '../db/transaction';
import type { LlmEndpoint } from '../llm/types';
import { analyse, STOP_WORDS, tokenise } from '../retrieval/tokenise';
import { documentFields, type DocField } from '../kb/document-fields';
import { failureText, promptDocument, type ItemCalls } from './llm-stage';
import type { TextProperty } from './types';

/** A property the extractor found, and whether it is the field's whole value (a short field) or a phrase in it. */
export interface ExtractedProperty extends TextProperty {
  whole: boolean;
}

/**
 * The document's text fields as the authoring workspace marks spans in them (same paths, same texts), so a
 * property's field and offsets can be shown the same way.
 */
export function fieldsOf(document: unknown): DocField[] {
  return document && typeof document === 'object' && !Array.isArray(document) ? documentFields(document as Record<string, unknown>) : [];
}

/** A property's content words: analysed as the BM25 baseline reads text, stop words dropped. */
export function contentWords(text: string): string[] {
  return [...new Set(analyse(text, { stopWords: true, stemming: false }))];
}

/** The words of an entity's document as term evidence reads them: its name, aliases and field values. */
export function documentWords(entity: { name: string; aliases: string[] | null; document: unknown }): Set<string> {
  return new Set([entity.name, ...(entity.aliases ?? []), ...fieldsOf(entity.document).map((f) => f.text)].flatMap(tokenise));
}

/** A "- label: " line start the flattened document shows before a field's value, which models often quote too. */
const LINE_LABEL = /^(?:-\s+)?[^:\n]{1,60}:\s+/;

/**
 * Where `quote` occurs in the document's fields (the first field holding it), or nowhere: verbatim, else without
 * a leading "label: " taken from the flattened document, else ignoring case (when that keeps the offsets).
 */
export function locateQuote(fields: DocField[], quote: string): Pick<TextProperty, 'field' | 'start' | 'end'> {
  const q = quote.trim();
  const tries = [...new Set([q, q.replace(LINE_LABEL, '').trim()])].filter(Boolean);
  for (const find of tries) {
    for (const f of fields) {
      let at = f.text.indexOf(find);
      if (at < 0 && f.text.toLowerCase().length === f.text.length) at = f.text.toLowerCase().indexOf(find.toLowerCase());
      if (at >= 0) return { field: f.path, start: at, end: at + find.length };
    }
  }
  return { field: null, start: null, end: null };
}

/** A field value this short is a property by itself ("colour: red"). */
const SHORT_FIELD = 40;
/** Words either side of a rare term taken with it into a phrase. */
const PHRASE_CONTEXT = 2;
const WORD = /[\p{L}\p{N}]+/gu;
/** A term in more documents than this share describes nothing in particular ("belongs", "category"). */
const KEY_TERM_SHARE = 0.05;
/** Fields holding identifiers or links: their values say which entity it is, not what it is like. */
const IDENTIFIER_FIELD = /(^|[._])(id|ids|url|uri|link|asin|doi|isbn)$|_id$/i;

interface Token {
  term: string;
  start: number;
  end: number;
}

const tokensOf = (text: string): Token[] => [...text.matchAll(WORD)].map((m) => ({ term: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length }));

/** Whether a word counts when rarity is judged: not a stop word, not a bare number, not one or two letters. */
const contentTerm = (term: string) => term.length > 2 && !STOP_WORDS.has(term) && !/^\d+$/.test(term);

/** Only spaces, or one hyphen, slash or apostrophe, between two words: they belong to one phrase. */
const joined = (text: string, a: Token, b: Token) => /^(\s+|[-/'\u2019])$/u.test(text.slice(a.end, b.start));

/**
 * The phrase around the token at `i`: up to PHRASE_CONTEXT words either side within the same clause,
 * stop words trimmed from its ends.
 */
function phraseAround(text: string, tokens: Token[], i: number): { start: number; end: number } {
  let lo = i;
  let hi = i;
  while (lo > 0 && i - lo < PHRASE_CONTEXT && joined(text, tokens[lo - 1]!, tokens[lo]!)) lo--;
  while (hi < tokens.length - 1 && hi - i < PHRASE_CONTEXT && joined(text, tokens[hi]!, tokens[hi + 1]!)) hi++;
  while (lo < i && STOP_WORDS.has(tokens[lo]!.term)) lo++;
  while (hi > i && STOP_WORDS.has(tokens[hi]!.term)) hi--;
  return { start: tokens[lo]!.start, end: tokens[hi]!.end };
}

export interface ExtractorInput {
  fields: DocField[];
  count: number;
  /** Names that must not appear in a property: the relational answers' names and aliases. */
  avoid: string[];
  /** Documents in the knowledge base, and each term's document frequency (BM25 index statistics). */
  docs: number;
  df: Map<string, number>;
  /** The words of the other relational answers' documents (as term evidence reads them). */
  others: ReadonlySet<string>[];
}

interface Scored extends ExtractedProperty {
  /** The document frequency of its rarest term. */
  rarity: number;
}

/**
 * The deterministic extractor: short field values and phrases around the document's rarest terms, rarest
 * first; terms in more than KEY_TERM_SHARE of the documents are not key to any. A term only this document
 * has is passed over while others exist: it is usually an identifier or a misspelling. Nothing that names one
 * of `avoid` is taken, and no word twice. A property that some other relational answer (among those having the
 * properties taken so far) also has goes before a rarer one none has, so the kept set is not the source alone
 * by construction whenever the documents allow more.
 */
export function extractProperties(input: ExtractorInput): ExtractedProperty[] {
  const dfOf = (term: string) => input.df.get(term) ?? input.docs;
  const leaks = (text: string) => findLeaks(text, input.avoid).length > 0;
  const avoidTerms = new Set(input.avoid.flatMap((n) => tokensOf(n).map((t) => t.term)));
  const found: Scored[] = [];
  for (const field of input.fields) {
    if (IDENTIFIER_FIELD.test(field.path) || /^\w+:\/\//.test(field.text)) continue;
    const tokens = tokensOf(field.text);
    const content = tokens.map((t, i) => ({ t, i })).filter(({ t }) => contentTerm(t.term) && !avoidTerms.has(t.term));
    if (!content.length) continue;
    if (field.text.trim().length <= SHORT_FIELD) {
      if (!leaks(field.text)) {
        const start = field.text.length - field.text.trimStart().length;
        const end = field.text.trimEnd().length;
        found.push({ text: field.text.slice(start, end), field: field.path, start, end, source: 'extractor', whole: true, rarity: Math.min(...content.map(({ t }) => dfOf(t.term))) });
      }
      continue;
    }
    for (const { t, i } of content) {
      const span = phraseAround(field.text, tokens, i);
      const text = field.text.slice(span.start, span.end);
      // The term is none of the avoided names' words, so alone it never names one.
      const chosen = leaks(text) ? { text: field.text.slice(t.start, t.end), start: t.start, end: t.end } : { text, ...span };
      found.push({ ...chosen, field: field.path, source: 'extractor', whole: false, rarity: dfOf(t.term) });
    }
  }
  const key = found.filter((f) => f.rarity <= input.docs * KEY_TERM_SHARE);
  const shared = key.some((f) => f.rarity > 1);
  const ranked = key.filter((f) => !shared || f.rarity > 1).sort((a, b) => a.rarity - b.rarity || a.start! - b.start!);
  const wordsOf = new Map(ranked.map((f) => [f, contentWords(f.text)]));
  const supports = (doc: ReadonlySet<string>, f: Scored) => wordsOf.get(f)!.every((w) => doc.has(w));
  const picked: Scored[] = [];
  const usedTerms = new Set<string>();
  let alive = input.others;
  while (picked.length < input.count) {
    const open = ranked.filter((f) => !picked.some((p) => p.field === f.field && p.start! < f.end! && f.start! < p.end!)
      && !wordsOf.get(f)!.some((w) => usedTerms.has(w)));
    // Rarest first, but one that another answer still in the running shares goes first.
    const next = open.find((f) => alive.some((doc) => supports(doc, f))) ?? open[0];
    if (!next) break;
    picked.push(next);
    wordsOf.get(next)!.forEach((w) => usedTerms.add(w));
    alive = alive.filter((doc) => supports(doc, next));
  }
  return picked.map(({ rarity: _rarity, ...p }) => p);
}

/** Each term's document frequency in a BM25 index (terms it does not hold are left out). */
export async function documentFrequencies(db: Queryable, indexId: number, terms: string[]): Promise<Map<string, number>> {
  const { rows } = await db.query<{ term: string; df: number }>(
    'SELECT term, df FROM bm25_term WHERE index_id = $1 AND term = ANY($2::text[])', [indexId, [...new Set(terms)]]);
  return new Map(rows.map((r) => [r.term, r.df]));
}

/** The lower-cased words of the fields, for looking up their frequencies. */
export function fieldTerms(fields: DocField[]): string[] {
  return [...new Set(fields.flatMap((f) => tokensOf(f.text).map((t) => t.term)))];
}

const PropertiesAnswer = z.object({
  properties: z.array(z.object({ property: z.string().trim().min(1).max(300), quote: z.string().max(2000) })).max(20),
});

/**
 * The LLM extractor: properties the model reads in the document, each placed where its quote occurs in the
 * document's fields (field and offsets null when the quote is not there verbatim).
 */
export async function llmProperties(calls: ItemCalls, endpoint: LlmEndpoint, entity: { type: string; name: string; text: string; document: unknown }, count: number): Promise<{ ok: true; properties: TextProperty[] } | { ok: false; reason: string }> {
  const result = await calls.call(endpoint, 'synthesis.properties',
    { type: entity.type, name: entity.name, document: promptDocument(entity.text), count: String(count) }, PropertiesAnswer, 'properties', 800);
  if (!result.ok) return { ok: false, reason: failureText(result) };
  const fields = fieldsOf(entity.document);
  return { ok: true, properties: result.value.properties.slice(0, count).map((p) => ({ text: p.property, ...locateQuote(fields, p.quote), source: 'llm' as const })) };
}
