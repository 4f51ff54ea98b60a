import type { RenderedPrompt } from '../types';
import { studyRate } from './study-rate';
import { synthesisCompose } from './synthesis-compose';
import { synthesisFilter } from './synthesis-filter';
import { synthesisProperties } from './synthesis-properties';
import type { PromptId, PromptTemplate } from './template';

export type { PromptId, PromptTemplate } from './template';
export { promptMarker } from './template';

const PROMPTS: Record<PromptId, PromptTemplate> = {
  'synthesis.properties': synthesisProperties,
  'synthesis.compose': synthesisCompose,
  'synthesis.filter': synthesisFilter,
  'study.rate': studyRate,
};

/** Every prompt kept in the repository, in a stable order. */
export const listPrompts = (): PromptTemplate[] => Object.values(PROMPTS);

export function getPrompt(id: PromptId): PromptTemplate {
  const prompt = PROMPTS[id];
  if (!prompt) throw new Error(`Unknown prompt "${id}"`);
  return prompt;
}

const PLACEHOLDER = /\{\{(\w+)\}\}/g;

/**
 * The prompt's system and user messages with its variables filled in, in one pass (a value holding "{{x}}"
 * stays as it is). Throws naming every variable missing from `vars` and every one the prompt does not take.
 */
export function renderPrompt(id: PromptId, vars: Record<string, string>): RenderedPrompt {
  const prompt = getPrompt(id);
  const missing = prompt.vars.filter((v) => typeof vars[v] !== 'string');
  const unknown = Object.keys(vars).filter((v) => !prompt.vars.includes(v));
  if (missing.length || unknown.length) {
    const problems = [
      missing.length ? `missing ${missing.map((v) => `"${v}"`).join(', ')}` : '',
      unknown.length ? `unknown ${unknown.map((v) => `"${v}"`).join(', ')}` : '',
    ].filter(Boolean);
    throw new Error(`Prompt ${id} v${prompt.version}: ${problems.join('; ')} (it takes ${prompt.vars.join(', ')})`);
  }
  const fill = (text: string) => text.replace(PLACEHOLDER, (_, name: string) => vars[name]!);
  return {
    promptId: prompt.id,
    promptVersion: prompt.version,
    messages: [{ role: 'system', content: fill(prompt.system) }, { role: 'user', content: fill(prompt.user) }],
  };
}
