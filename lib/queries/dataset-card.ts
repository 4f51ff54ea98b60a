import { synthesisSection } from '../synthesis/card';
import type { ReleaseRecord } from '../release/record';
import { releaseStatements } from '../release/statements';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const fixed = (x: number, digits = 2) => x.toFixed(digits);
const splitName = (s: string | null) => s ?? '(no split)';

/**
 * The release's README: what it is, where it comes from, its numbers as the STaRK paper tabulates them, and
 * the statements its Croissant file carries (lib/release/statements.ts), word for word.
 */
export function datasetCard(record: ReleaseRecord): string {
  const { set, kb, release, stats, starkIds, synthesis } = record;
  const says = releaseStatements(record);
  const lines = [
    `# ${says.title}`,
    '',
    says.description,
    '',
    '| | |',
    '| --- | --- |',
    `| Knowledge base | ${kb.name} (\`${kb.slug}\`) |`,
    `| Origin | ${set.origin} |`,
    `| Licence | ${set.license || 'not stated'} |`,
    `| Language | ${record.language} |`,
    `| Released | ${release.createdAt.slice(0, 10)} |`,
    `| Content hash | \`sha256:${release.contentHash}\` (of \`queries.jsonl\`) |`,
    '',
    '## Queries',
    '',
    '| Split | Queries | Share | With several answers | Answers per query | Words per query |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...stats.bySplit.map((s) => `| ${splitName(s.split)} | ${s.queries} | ${pct(s.queries / stats.queries)} | ${s.multiAnswer} | ${fixed(s.averageAnswers)} | ${fixed(s.averageWords, 1)} |`),
    `| **all** | **${stats.queries}** | 100% | **${stats.multiAnswer}** | **${fixed(stats.averageAnswers)}** | **${fixed(stats.averageWords, 1)}** |`,
    '',
    '## Lexical diversity of the query words',
    '',
    `Shannon entropy ${fixed(stats.lexical.entropyBits)} bits, type-token ratio ${fixed(stats.lexical.typeTokenRatio, 4)} ` +
      `(${stats.lexical.types} distinct words in ${stats.lexical.tokens}).`,
    '',
    '## Data collection',
    '',
    `Collection type: ${says.collectionTypes.join(', ')}.`,
    '',
    says.dataCollection,
    '',
    ...(synthesis.length ? [...synthesisSection(synthesis), ''] : []),
    '## Annotation protocol',
    '',
    says.annotationProtocol,
    '',
    '## Agreement',
    '',
    says.annotationAnalysis,
    '',
    '## Annotators',
    '',
    says.annotatorDemographics,
    '',
    '## Machine annotation tools',
    '',
    says.machineAnnotationTools,
    '',
    '## Unresolved ids',
    '',
    says.unresolved,
    '',
    '## Limitations',
    '',
    says.limitations,
    '',
    '## Biases',
    '',
    says.biases,
    '',
    '## Intended uses',
    '',
    says.useCases,
    '',
    '## Personal and sensitive information',
    '',
    says.personalInformation,
    '',
    '## Maintenance',
    '',
    says.maintenance,
    '',
    '## Citation',
    '',
    '```bibtex',
    says.citation,
    '```',
    '',
    '## Files',
    '',
    '- `queries.jsonl`: one query a line with its answers, seeds, split and provenance (always included; the hash above is of this file).',
    ...(starkIds ? ['- `stark/` (when chosen): `stark_qa.csv` (or `stark_qa_human_generated_eval.csv` with `answer_ids_source`) and `split/*.index`, as STaRK loads them.'] : []),
    '- `trec/` (when chosen): `topics.txt` (`<qid> <text>`) and `qrels.txt` (`<qid> 0 <entity> <grade>`).',
    '- `hf/` (when chosen): the release as a Hugging Face dataset folder: this card with YAML front matter as `README.md`, ' +
      '`data/<split>.jsonl` and `data/<split>.parquet`, and `croissant.json` (Croissant 1.1 with the Responsible-AI fields above).',
    '',
    'Entity ids are the knowledge base\'s external ids.',
  ];
  if (release.notes.trim()) lines.push('', '## Notes', '', release.notes.trim());
  return `${lines.join('\n')}\n`;
}
