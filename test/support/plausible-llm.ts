import type { ChatMessage } from '../../lib/llm/types';
import type { FakeReply } from './fake-chat-server';

/**
 * Plausible answers to the synthesis prompts, told apart by the marker closing each system prompt, with usage
 * (150 tokens a call): properties quoted from the document (never naming the entity), a fixed query, and every
 * candidate judged to satisfy them.
 */
export function plausibleReply(messages: ChatMessage[]): FakeReply {
  const system = messages.find((m) => m.role === 'system')!.content;
  const user = messages.find((m) => m.role === 'user')!.content;
  const usage = { prompt_tokens: 100, completion_tokens: 50 };
  if (system.includes('(Prompt synthesis.properties,')) {
    const name = /^Entity name:\s*(.*)$/m.exec(user)![1]!.toLowerCase();
    const document = /<<<\n([\s\S]*?)\n>>>/.exec(user)?.[1] ?? '';
    const quotes = [...new Set(document.split(/\n|(?<=\.)\s+/).map((s) => s.trim()).filter((s) => s.length >= 12 && s.length <= 100 && !s.toLowerCase().includes(name)))].slice(0, 2);
    return { content: JSON.stringify({ properties: quotes.map((q) => ({ property: q, quote: q })) }), usage };
  }
  if (system.includes('(Prompt synthesis.compose,')) return { content: JSON.stringify({ query: 'Which one fits the description given?' }), usage };
  return { content: JSON.stringify({ satisfies: true, reason: 'The document says so.' }), usage };
}
