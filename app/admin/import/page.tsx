import type { Metadata } from 'next';
import { requirePageUser } from '@/lib/auth/page-guard';
import { IMPORT_FORMATS, type ImportFormat } from '@/lib/ingest/readers';
import { uploadLimitBytes } from '@/lib/ingest/uploads';
import { ImportForm } from '@/components/import-form';
import { ImportJobList } from '@/components/import-job-list';

export const metadata: Metadata = { title: 'Import' };

/** Which files each format wants (docs/formats.md), shown under the format select. */
const FORMAT_HINTS: Record<ImportFormat, string> = {
  native: 'Entities as .jsonl and edges as .tsv or .csv with the header source, relation, target.',
  primekg: 'PrimeKG’s kg.csv, optionally with a .jsonl of entity text.',
  'text-graph': 'Exactly two files: nodes (.jsonl) and edges (.csv), as STaRK-Prime subgraphs ship them.',
  triples: 'Triples as .tsv or .txt (head, relation, tail), optionally *labels*.tsv and *types*.tsv.',
  cypherbench: 'One CypherBench graph file (.json).',
};

export default async function ImportPage() {
  await requirePageUser('/admin/import', 'kb:manage');
  return (
    <section className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Import a knowledge base</h1>
        <p className="mt-1 max-w-3xl text-slate-600">
          Upload the files of a knowledge base in one of the supported formats. The import runs on the server; you can follow it,
          leave, and come back to its page.
        </p>
      </div>
      <ImportForm formats={IMPORT_FORMATS.map((id) => ({ id, hint: FORMAT_HINTS[id] }))} maxUploadBytes={uploadLimitBytes()} />
      <ImportJobList />
    </section>
  );
}
