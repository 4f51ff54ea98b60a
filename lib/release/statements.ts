import type { ReleaseRecord } from './record';

/**
 * What a release says about itself in prose, from its record: the dataset card prints each statement under its
 * heading and the Croissant file carries the same text in its Responsible-AI properties.
 */
export interface ReleaseStatements {
  title: string;
  description: string;
  /** Croissant `rai:dataCollectionType`, from the RAI vocabulary's recommended values. */
  collectionTypes: string[];
  dataCollection: string;
  annotationProtocol: string;
  annotationAnalysis: string;
  annotatorDemographics: string;
  machineAnnotationTools: string;
  unresolved: string;
  limitations: string;
  biases: string;
  useCases: string;
  personalInformation: string;
  maintenance: string;
  /** BibTeX. */
  citation: string;
}

const COLLECTION_TYPE: Record<string, string> = {
  human: 'Manual Human Curator',
  synthesized: 'Software Collection',
  imported: 'Secondary Data analysis',
};

const ORIGIN_WORDS: Record<string, string> = { human: 'written by people', synthesized: 'synthesized', imported: 'imported from elsewhere' };

const fixed = (x: number | null, digits = 2) => (x === null ? 'not measurable (too few overlapping judgments)' : x.toFixed(digits));
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/** "1 query was", "2 queries were". */
const queriesWere = (n: number) => `${plural(n, 'query', 'queries')} ${n === 1 ? 'was' : 'were'}`;

function collection(r: ReleaseRecord): string {
  const origins = r.origins.map((o) => `${o.queries} ${ORIGIN_WORDS[o.origin] ?? `of origin "${o.origin}"`}`).join(', ');
  const parts = [`${plural(r.stats.queries, 'query', 'queries')} over the knowledge base ${r.kb.name} (${r.kb.slug}): ${origins}.`];
  for (const c of r.campaigns) {
    parts.push(c.kind === 'validation'
      ? `${plural(c.queries, 'query', 'queries')} came from the validation campaign ${c.name}, in which annotators checked synthesized queries against the knowledge base and a reviewer approved them.`
      : `${queriesWere(c.queries)} written in the authoring campaign ${c.name}: each annotator was given a seed entity and wrote a query it answers, following the campaign's guidelines, and a reviewer approved it.`);
  }
  for (const j of r.synthesis) {
    const how = j.llm ? `with the language model ${j.llm.model}` : 'deterministically, without a language model';
    parts.push(`${queriesWere(j.inSet)} synthesized by synthesis job ${j.id} ${how}, from ${plural(j.templates.length, 'relational template')} and seed ${j.spec.seed}, following STaRK's pipeline.`);
  }
  if (r.origins.some((o) => o.origin === 'imported')) parts.push('Imported queries were made outside SKB Studio; how they were written is not recorded here.');
  return parts.join(' ');
}

function protocol(r: ReleaseRecord): string {
  const parts: string[] = [];
  for (const c of r.campaigns) {
    parts.push(`Campaign ${c.name} (${c.kind}): ${plural(c.annotators, 'annotator')} handed in work, up to ${c.annotatorsPerSeed} per seed; ` +
      `${plural(c.reviewers, 'reviewer')} adjudicated it, accepting or rejecting each answer an annotator chose (a rejection needs a reason). ` +
      `Every candidate answer (the entities matching the query's relational requirement) was judged relevant, not relevant or unsure, with evidence for the relevant ones. Guidelines:\n\n${c.guidelines.trim()}`);
  }
  for (const j of r.synthesis) {
    parts.push(j.llm
      ? `Synthesis job ${j.id}: the answers are the entities satisfying the template in the knowledge base's edges, kept only when the filter judges (${j.llm.filterModels.join(', ')}) agreed they have the query's textual properties (agreement rule: ${j.spec.agreement}).`
      : `Synthesis job ${j.id}: the answers are the entities satisfying the template in the knowledge base's edges, kept only when their document holds the query's textual terms.`);
  }
  if (!parts.length) parts.push('No annotation was done in SKB Studio: the answers are those the queries came with.');
  return parts.join('\n\n');
}

function analysis(r: ReleaseRecord): string {
  const parts = r.campaigns.map((c) => `Campaign ${c.name}: Krippendorff's alpha (nominal) ${fixed(c.alpha)} over ${plural(c.alphaUnits, 'judged entity', 'judged entities')}; ` +
    `mean pairwise Jaccard similarity of the annotators' answer sets ${fixed(c.meanJaccard)} over ${plural(c.seedsCompared, 'seed')} two annotators or more worked on. ` +
    'Disagreements were resolved by the reviewer, whose decision is the answer set released.');
  for (const s of r.studies) {
    parts.push(`Rating study ${s.name}: ${plural(s.participants, 'participant')} gave ${plural(s.ratings, 'rating')}; Krippendorff's alpha ` +
      `${s.dimensions.map((d) => `${d.label} ${fixed(d.alpha)} (${plural(d.units, 'item')})`).join(', ')}.`);
  }
  return parts.length ? parts.join(' ') : 'No agreement was measured: no query was annotated or rated by more than one person in SKB Studio.';
}

function tools(r: ReleaseRecord): string {
  if (!r.synthesis.length) return 'None.';
  return r.synthesis.map((j) => {
    const prompts = j.prompts.length ? `; prompts ${[...j.prompts].sort((a, b) => a.id.localeCompare(b.id)).map((p) => `${p.id} v${p.version}`).join(', ')}` : '';
    return j.llm
      ? `Synthesis job ${j.id}: SKB Studio's STaRK pipeline with ${j.llm.model} (properties, composition) and ${j.llm.filterModels.join(', ')} (filter)${prompts}.`
      : `Synthesis job ${j.id}: SKB Studio's STaRK pipeline, deterministic (BM25 term weights, template realiser).`;
  }).join(' ');
}

function unresolvedText(r: ReleaseRecord): string {
  const u = r.unresolved;
  if (!u.queries) return `Every answer and seed id is an entity of the knowledge base ${r.kb.slug}.`;
  const shown = u.examples.map((e) => `${e.query} (${e.ids.join(', ')})`).join('; ');
  return `${plural(u.answerIds, 'answer id')} and ${plural(u.seedIds, 'seed id')} are not entities of the knowledge base ${r.kb.slug} ` +
    `(kept as unresolved when the queries were imported); ${plural(u.queries, 'query names', 'queries name')} at least one. They are kept, never dropped: ` +
    `they count as answers in every metric, and the data files list them per query in \`unresolved_ids\`. ` +
    `${u.queries > u.examples.length ? `The first ${u.examples.length}` : 'They'}: ${shown}.`;
}

function limitations(r: ReleaseRecord): string {
  const parts = [
    `The answers are entities of the knowledge base ${r.kb.name} as it was when the release was made; entities added since are not judged and may be missing answers.`,
  ];
  if (r.unresolved.queries) parts.push(`${plural(r.unresolved.queries, 'query names', 'queries name')} ids the knowledge base does not have (see Unresolved ids).`);
  if (r.synthesis.length) parts.push('Synthesized queries inherit the errors of their pipeline: the filter can drop true answers and keep false ones.');
  if (r.origins.some((o) => o.origin === 'imported')) parts.push('The answers of imported queries were not checked in SKB Studio.');
  const unsplit = r.stats.bySplit.find((s) => s.split === null);
  if (unsplit) parts.push(`${plural(unsplit.queries, 'query belongs', 'queries belong')} to no split.`);
  return parts.join(' ');
}

function biases(r: ReleaseRecord): string {
  const parts = ['The queries cover the entities that were chosen as seeds or matched by templates, not the knowledge base evenly.'];
  if (r.campaigns.length) parts.push('Human-written queries reflect their few authors\' wording and knowledge.');
  if (r.synthesis.some((j) => j.llm)) parts.push('Synthesized queries reflect the wording of the language model that composed them.');
  return parts.join(' ');
}

function useCases(r: ReleaseRecord): string {
  const splits = r.stats.bySplit.filter((s) => s.split !== null).map((s) => `${s.split} (${s.queries})`);
  return `Evaluating retrieval over the knowledge base ${r.kb.name}: rank its entities for each query and score the ranking against the answer ids ` +
    '(Hit@k, Recall@k, MRR, as SKB Studio scores runs).' +
    (splits.length ? ` Splits: ${splits.join(', ')}; train on the training split only and report on the test split.` : ' The release has no splits: use it for evaluation only.');
}

function personal(r: ReleaseRecord): string {
  return r.campaigns.length
    ? 'Queries written in a campaign carry in their metadata the author\'s name (or email) and the reviewer\'s account id (`author`, `reviewer`). No demographic or other personal information about annotators or raters is recorded.'
    : 'The queries carry no information about the people who made them. Any personal information is that of the knowledge base\'s own documents.';
}

/** The BibTeX key: letters and digits of the set's name, and the release number. */
function bibtex(r: ReleaseRecord): string {
  const key = `${r.set.name.replace(/[^A-Za-z0-9]+/g, '')}_v${r.release.number}`;
  const escape = (s: string) => s.replace(/[{}\\]/g, '');
  return [
    `@misc{${key},`,
    `  title = {{${escape(r.set.name)}}: release ${r.release.number}, ${escape(r.release.name)}},`,
    `  author = {${escape(r.release.createdBy ?? r.kb.name)}},`,
    `  year = {${r.release.createdAt.slice(0, 4)}},`,
    `  howpublished = {\\url{${r.release.url}}},`,
    `  note = {Queries over the knowledge base ${escape(r.kb.name)}; SHA-256 of queries.jsonl: ${r.release.contentHash}}`,
    '}',
  ].join('\n');
}

export function releaseStatements(r: ReleaseRecord): ReleaseStatements {
  return {
    title: `${r.set.name} — release ${r.release.number}: ${r.release.name}`,
    description: r.set.description || `Queries over the knowledge base ${r.kb.name}.`,
    collectionTypes: [...new Set(r.origins.map((o) => COLLECTION_TYPE[o.origin] ?? 'Others'))],
    dataCollection: collection(r),
    annotationProtocol: protocol(r),
    annotationAnalysis: analysis(r),
    annotatorDemographics: 'Unknown: SKB Studio records no demographic information about annotators or raters.',
    machineAnnotationTools: tools(r),
    unresolved: unresolvedText(r),
    limitations: limitations(r),
    biases: biases(r),
    useCases: useCases(r),
    personalInformation: personal(r),
    maintenance: `Releases are numbered and never change; a corrected set is published as a new release, whose page lists what changed. ` +
      `This is release ${r.release.number}; the SHA-256 of its queries.jsonl is ${r.release.contentHash}.`,
    citation: bibtex(r),
  };
}
