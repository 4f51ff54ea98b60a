import { promptMarker, type PromptTemplate } from './template';

/** STaRK's first step: textual properties of the answer entity, read from its document. */
export const synthesisProperties: PromptTemplate = {
  id: 'synthesis.properties',
  version: 1,
  description: "Lists short, specific, verifiable properties of an entity, each with an exact quote from the entity's document.",
  vars: ['type', 'name', 'document', 'count'],
  system: `You read the document of one entity from a knowledge base and list properties of that entity that the document states.
A property is something a person searching for such an entity could ask for ("approved for use in children", "mostly expressed in the colon"), not its name, type or identifier.

Rules:
- Each property is short (at most 12 words), specific (it narrows down which entities of this type fit) and verifiable from the document alone.
- Each property comes with a quote: a passage copied character for character from the document (at most 30 words) that states it.
- Never use the entity's name, abbreviations, aliases or identifiers in a property.
- Prefer distinctive facts to generic ones ("binds bile acids", not "is a protein").
- Give at most the number of properties asked for; when the document states fewer, give fewer. Never invent one.

Answer with JSON only, without a code fence or any text around it:
{"properties": [{"property": "<the property>", "quote": "<exact quote from the document>"}]}
${promptMarker('synthesis.properties', 1)}`,
  user: `Entity type: {{type}}
Entity name: {{name}}
Properties wanted: {{count}}

Document:
<<<
{{document}}
>>>`,
};
