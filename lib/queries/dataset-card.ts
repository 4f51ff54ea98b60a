import type { QuerySetStats } from './set-stats';
import type { QuerySetSummary } from './sets';
import { synthesisSection, type CardJob } from '../synthesis/card';

export interface CardInput {
  set: Pick<QuerySetSummary, 'name' | 'description' | 'origin' | 'license'>;
  kb: { name: string; slug: string };
  release: { number: number; name: string; notes: string; contentHash: string; createdAt: Date };
  stats: QuerySetStats;
  /** Whether every id is an integer, so the release can be written as STaRK CSV. */
  starkIds: boolean;
  /** The synthesis jobs whose queries are in the release, if any. */
  synthesis?: CardJob[];
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const fixed = (x: number, digits = 2) => x.toFixed(digits);
const splitName = (s: string | null) => s ?? '(no split)';

/** The release's README: what it is, where it comes from, its numbers as the STaRK paper tabulates them. */
export function datasetCard({ set, kb, release, stats, starkIds, synthesis }: CardInput): string {
  const lines = [
    `# ${set.name} — release ${release.number}: ${release.name}`,
    '',
    set.description || `Queries over the knowledge base ${kb.name}.`,
    '',
    '| | |',
    '| --- | --- |',
    `| Knowledge base | ${kb.name} (\`${kb.slug}\`) |`,
    `| Origin | ${set.origin} |`,
    `| Licence | ${set.license || 'not stated'} |`,
    `| Released | ${release.createdAt.toISOString().slice(0, 10)} |`,
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
    ...(synthesis?.length ? [...synthesisSection(synthesis), ''] : []),
    '## Files',
    '',
    '- `queries.jsonl`: one query a line with its answers, seeds, split and provenance (always included; the hash above is of this file).',
    ...(starkIds ? ['- `stark/` (when chosen): `stark_qa.csv` (or `stark_qa_human_generated_eval.csv` with `answer_ids_source`) and `split/*.index`, as STaRK loads them.'] : []),
    '- `trec/` (when chosen): `topics.txt` (`<qid> <text>`) and `qrels.txt` (`<qid> 0 <entity> <grade>`).',
    '',
    'Entity ids are the knowledge base\'s external ids.',
  ];
  if (release.notes.trim()) lines.push('', '## Notes', '', release.notes.trim());
  return `${lines.join('\n')}\n`;
}
