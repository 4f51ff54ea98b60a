import { promptMarker, type PromptTemplate } from './template';

/** STaRK's second step: one natural query joining the relational requirement and the textual properties. */
export const synthesisCompose: PromptTemplate = {
  id: 'synthesis.compose',
  version: 1,
  description: 'Writes a natural query combining a relational template (in words, with its seed entities) and textual properties, without naming the answer.',
  vars: ['template', 'seeds', 'answerType', 'properties'],
  system: `You write one search query of the kind a real person (a researcher, a clinician, a curious reader) would type or ask when looking for an entity.
The entity sought has two kinds of requirements: a relational one (how it is connected to the seed entities, given as a template in words) and textual ones (properties of the entity itself).

Rules:
- Ask for an entity of the answer type that meets the relational requirement AND every listed property.
- Say the relational requirement in natural words, naming the seed entities as given; do not copy the template's arrows or brackets.
- Work each property into the query in your own words; you may merge properties into one phrase.
- Never name the entity sought, nor hint at its name, abbreviation, symbol or identifier: the query must not give its answer away.
- One or two fluent sentences. No lists, no quotation marks, and no talk of templates, properties, documents or knowledge bases.

Answer with JSON only, without a code fence or any text around it:
{"query": "<the query>"}
${promptMarker('synthesis.compose', 1)}`,
  user: `Relational requirement: {{template}}
Seed entities: {{seeds}}
Answer type: {{answerType}}
Properties of the entity sought:
{{properties}}`,
};
