import { z } from 'zod';
import type { LlmEndpoint } from '../llm/types';
import { failureText, type ItemCalls } from './llm-stage';
import { branchWords, fillSeeds, seedSlot, typeWords, withArticle } from './template-words';
import type { SynthesisTemplate } from './types';

/** What the realiser needs of a property: its text, the field it came from, and whether it is that field's whole value. */
export interface PropertyPhrase {
  text: string;
  field: string | null;
  whole: boolean;
}

/** A field's path as a noun: "details.active_ingredient" reads "active ingredient", list positions dropped. */
export function fieldLabel(path: string): string {
  const named = path.split('.').filter((part) => !/^\d+$/.test(part));
  return (named.at(-1) ?? path).replace(/_+/g, ' ').trim() || 'text';
}

const quoted = (text: string) => `“${text}”`;

function listed(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** What the answer has, one predicate per field: "has a description that mentions “x” and “y”". */
function predicates(properties: PropertyPhrase[]): string[] {
  const phrases = new Map<string, string[]>();
  const out: string[] = [];
  for (const p of properties) {
    if (p.field === null) out.push(`is described as ${quoted(p.text)}`);
    else if (p.whole) out.push(`has ${quoted(p.text)} as its ${fieldLabel(p.field)}`);
    else {
      const label = fieldLabel(p.field);
      if (!phrases.has(label)) phrases.set(label, []);
      phrases.get(label)!.push(quoted(p.text));
    }
  }
  const mentions = [...phrases].map(([label, texts]) => `has ${withArticle(label)} that mentions ${listed(texts)}`);
  return [...mentions, ...out];
}

/**
 * The template realiser: a plain question from the template in words, the seeds' names and the properties,
 * e.g. "Which gene/protein targeted by a drug indicated for Crohn disease has a description that mentions
 * “transcription factor”?". It names the seeds only; the answer's name is never among its inputs.
 */
export function realiseQuery(template: SynthesisTemplate, seedNames: string[], properties: PropertyPhrase[]): string {
  const relational = fillSeeds(template.branches.map((b, i) => branchWords(b, seedSlot(i))).join(' and '), seedNames);
  const has = predicates(properties);
  const type = typeWords(template.answerType);
  // The relational words restrict the type ("that interacts with …", "targeted by …"): no commas around them.
  return has.length ? `Which ${type} ${relational} ${listed(has)}?` : `Find ${withArticle(type)} ${relational}.`;
}

const ComposeAnswer = z.object({ query: z.string().trim().min(1).max(2000) });

/** The properties as a prompt lists them, one a line. */
export const propertyLines = (properties: { text: string }[]) => properties.map((p) => `- ${p.text}`).join('\n');

/** The LLM composer: the model writes the query from the template in words, the seeds and the properties, told not to name the answer. */
export async function llmCompose(calls: ItemCalls, endpoint: LlmEndpoint, template: SynthesisTemplate, seeds: { name: string; type: string }[], properties: { text: string }[]): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  const result = await calls.call(endpoint, 'synthesis.compose', {
    template: fillSeeds(template.words, seeds.map((s) => s.name)),
    seeds: seeds.map((s) => `${s.name} (${typeWords(s.type)})`).join('; '),
    answerType: typeWords(template.answerType),
    properties: propertyLines(properties),
  }, ComposeAnswer, 'compose', 400);
  return result.ok ? { ok: true, text: result.value.query } : { ok: false, reason: failureText(result) };
}
