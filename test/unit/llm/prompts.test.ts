import { describe, expect, it } from 'vitest';
import { listPrompts, promptMarker, renderPrompt } from '../../../lib/llm/prompts';

const composeVars = { template: 'a gene associated with <disease>', seeds: 'Crohn disease', answerType: 'gene/protein', properties: '- expressed in the colon' };

describe('prompt templates', () => {
  it('lists the four prompts, each using exactly the variables it declares and naming itself in its system prompt', () => {
    const prompts = listPrompts();
    expect(prompts.map((p) => `${p.id}@${p.version}`)).toEqual(['synthesis.properties@1', 'synthesis.compose@1', 'synthesis.filter@1', 'study.rate@1']);
    for (const p of prompts) {
      const used = new Set([...`${p.system}\n${p.user}`.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]));
      expect([...used].sort(), p.id).toEqual([...p.vars].sort());
      expect(p.system.trimEnd().endsWith(promptMarker(p.id, p.version)), p.id).toBe(true);
      expect(p.system, p.id).toMatch(/JSON only/);
    }
  });

  it('renders the system and user messages with the variables filled in once', () => {
    const rendered = renderPrompt('synthesis.compose', { ...composeVars, seeds: 'Crohn disease {{answerType}}' });
    expect(rendered.promptId).toBe('synthesis.compose');
    expect(rendered.promptVersion).toBe(1);
    expect(rendered.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(rendered.messages[1]!.content).toBe([
      'Relational requirement: a gene associated with <disease>',
      'Seed entities: Crohn disease {{answerType}}',
      'Answer type: gene/protein',
      'Properties of the entity sought:',
      '- expressed in the colon',
    ].join('\n'));
    expect(rendered.messages[0]!.content).not.toMatch(/\{\{/);
  });

  it('keeps $ patterns in values as they are', () => {
    const rendered = renderPrompt('synthesis.properties', { type: 'drug', name: 'X', count: '3', document: "costs $1 and $& more, $'" });
    expect(rendered.messages[1]!.content).toContain("costs $1 and $& more, $'");
  });

  it('throws naming missing and unknown variables', () => {
    const { seeds: _, ...withoutSeeds } = composeVars;
    expect(() => renderPrompt('synthesis.compose', withoutSeeds)).toThrow('Prompt synthesis.compose v1: missing "seeds" (it takes template, seeds, answerType, properties)');
    expect(() => renderPrompt('synthesis.compose', { ...composeVars, answer: 'IL10' })).toThrow(/unknown "answer"/);
    expect(() => renderPrompt('nope' as never, {})).toThrow('Unknown prompt "nope"');
  });
});
