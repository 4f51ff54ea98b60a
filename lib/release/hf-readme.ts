import { stringify } from 'yaml';
import { knownLicence } from './licence';
import type { ReleaseRecord } from './record';

/** The Hub's size buckets, smallest first, with the largest count each holds. */
const SIZES: [string, number][] = [['n<1K', 999], ['1K<n<10K', 9_999], ['10K<n<100K', 99_999], ['100K<n<1M', 999_999], ['1M<n<10M', 9_999_999]];

export function sizeCategory(queries: number): string {
  return SIZES.find(([, max]) => queries <= max)?.[0] ?? '10M<n<100M';
}

/** How the Hub names who made the answers and the query texts, from the queries' origins. */
const CREATORS: Record<string, { annotations: string; language: string }> = {
  human: { annotations: 'expert-generated', language: 'expert-generated' },
  synthesized: { annotations: 'machine-generated', language: 'machine-generated' },
  imported: { annotations: 'found', language: 'found' },
};
const creators = (r: ReleaseRecord, kind: 'annotations' | 'language') => [...new Set(r.origins.map((o) => CREATORS[o.origin]?.[kind] ?? 'other'))].sort();

/** The Hub's dataset-card metadata for the release; `data_files` lists each split's JSONL file. */
export function hfFrontMatter(r: ReleaseRecord, splits: string[]): Record<string, unknown> {
  const licence = knownLicence(r.set.license);
  return {
    pretty_name: `${r.set.name} (release ${r.release.number})`,
    license: licence.hf,
    ...(licence.hf === 'other' ? { license_name: licence.text.toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/^-+|-+$/g, '') || 'other', license_details: licence.text } : {}),
    language: [r.language],
    task_categories: ['text-retrieval'],
    task_ids: ['document-retrieval'],
    size_categories: [sizeCategory(r.stats.queries)],
    annotations_creators: creators(r, 'annotations'),
    language_creators: creators(r, 'language'),
    multilinguality: ['monolingual'],
    source_datasets: r.origins.some((o) => o.origin === 'imported') ? ['extended'] : ['original'],
    tags: ['knowledge-base', 'entity-retrieval', 'semi-structured-retrieval', 'croissant', `kb-${r.kb.slug}`],
    configs: [{ config_name: 'default', data_files: splits.map((split) => ({ split, path: `data/${split}.jsonl` })) }],
  };
}

/** README.md of the Hugging Face folder: the front matter, then the dataset card. */
export function hfReadme(r: ReleaseRecord, splits: string[], card: string): string {
  return `---\n${stringify(hfFrontMatter(r, splits), { lineWidth: 0 })}---\n\n${card}`;
}
