import { promptMarker, type PromptTemplate } from './template';

/** STaRK's third step: each candidate meeting the relational requirement is checked against the properties. */
export const synthesisFilter: PromptTemplate = {
  id: 'synthesis.filter',
  version: 1,
  description: "Judges whether a candidate entity satisfies every property of a query, from the candidate's document.",
  vars: ['query', 'properties', 'type', 'name', 'document'],
  system: `You check whether one candidate entity satisfies a search query.
The candidate already meets the query's relational requirement; decide only whether it has every one of the listed properties.

Rules:
- Judge from the candidate's document alone, not from what you may know otherwise.
- A property is satisfied when the document states it, or states something that clearly implies it.
- When the document is silent on a property or contradicts it, the candidate does not satisfy the query.
- The reason is one sentence naming the property that decides.

Answer with JSON only, without a code fence or any text around it:
{"satisfies": true or false, "reason": "<one sentence>"}
${promptMarker('synthesis.filter', 1)}`,
  user: `Query: {{query}}
Properties to check:
{{properties}}

Candidate ({{type}}): {{name}}
Document:
<<<
{{document}}
>>>`,
};
