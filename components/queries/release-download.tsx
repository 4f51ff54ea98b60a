'use client';

import { useState } from 'react';
import { RELEASE_FORMATS, type ReleaseFormat } from '@/lib/release/formats';
import { setApi } from './api';

const LABELS: Record<ReleaseFormat, string> = {
  stark: 'STaRK (stark_qa.csv and split/*.index)',
  trec: 'TREC (topics.txt and qrels.txt)',
  jsonl: 'JSONL (queries.jsonl, always included: the content hash is of it)',
  hf: 'Hugging Face folder (hf/: README.md with YAML front matter, data per split in JSONL and Parquet, croissant.json)',
};

/**
 * The release as a zip with the dataset card and the formats ticked. `starkUnavailable` says why the release
 * cannot be written as STaRK (an id that is not an integer), which is then not offered.
 */
export function ReleaseDownload({ slug, name, number, starkUnavailable }: { slug: string; name: string; number: number; starkUnavailable: string | null }) {
  const [chosen, setChosen] = useState<ReleaseFormat[]>(RELEASE_FORMATS.filter((f) => f !== 'stark' || !starkUnavailable));
  const toggle = (f: ReleaseFormat) => setChosen((c) => (c.includes(f) ? c.filter((x) => x !== f) : [...c, f]));
  const formats = RELEASE_FORMATS.filter((f) => f === 'jsonl' || chosen.includes(f));
  const fixed = (f: ReleaseFormat) => f === 'jsonl' || (f === 'stark' && !!starkUnavailable);
  return (
    <div className="space-y-2 text-sm">
      <fieldset className="space-y-1">
        <legend className="mb-1 font-medium">Formats</legend>
        {RELEASE_FORMATS.map((f) => (
          <label key={f} className="flex items-center gap-2">
            <input type="checkbox" checked={formats.includes(f)} disabled={fixed(f)} onChange={() => toggle(f)} />
            {LABELS[f]}
          </label>
        ))}
        {starkUnavailable && <p className="text-xs text-slate-500">No STaRK: {starkUnavailable}</p>}
      </fieldset>
      <a href={`${setApi(slug, name)}/releases/${number}/download?formats=${formats.join(',')}`} download
        className="inline-block rounded bg-blue-600 px-3 py-1.5 font-medium text-white hover:bg-blue-700">
        Download release {number}
      </a>
    </div>
  );
}
