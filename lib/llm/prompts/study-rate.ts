import { promptMarker, type PromptTemplate } from './template';

/** A model as one more rater in a rating study: the study's instructions, dimensions, scales and anchors. */
export const studyRate: PromptTemplate = {
  id: 'study.rate',
  version: 1,
  description: "Rates a query on each of a study's dimensions, on its scale and anchors, as the study's instructions ask.",
  vars: ['instructions', 'dimensions', 'query', 'answers'],
  system: `You are one rater in a study of search queries written for a retrieval benchmark. Rate as a careful person following the study's instructions would.

Rules:
- Rate the query on every listed dimension, giving an integer on that dimension's scale; the anchors say what the points mean.
- Rate each dimension on its own; do not let one rating pull the others.
- Use the answers, when shown, only where a dimension is about them.

Answer with JSON only, without a code fence or any text around it, with one entry per dimension key:
{"ratings": {"<dimension key>": <integer>}, "reason": "<one or two sentences>"}
${promptMarker('study.rate', 1)}`,
  user: `Instructions to raters:
{{instructions}}

Dimensions:
{{dimensions}}

Query:
{{query}}

Answers:
{{answers}}`,
};
