'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import type { QueryImportSummary } from '@/lib/queries/import';
import { QUERY_FORMATS, QUERY_ORIGINS, type QueryFormat } from '@/lib/queries/types';
import { ApiError, requestJson, setPage, type LineProblem } from './api';
import { Field } from './field';
import { ProblemTable } from './problem-table';
import { uploadFile } from '../upload-file';

type FileKind = 'queries' | 'split' | 'topics' | 'qrels';

interface FileInput {
  /** The input's name in the form, and the `kind` the API is told. */
  kind: FileKind;
  label: string;
  help: string;
  /** File-picker hint; none for TREC, whose files often have no extension. */
  accept?: string;
  multiple?: boolean;
  required: boolean;
}

const SPLITS: FileInput = {
  kind: 'split', label: 'Split files', accept: '.index', multiple: true, required: false,
  help: 'Optional: train.index, val.index, test.index, one query id a line; the file name is the split name.',
};

/** The files each format takes (docs/query-formats.md). */
const FORMATS: Record<QueryFormat, { label: string; inputs: FileInput[] }> = {
  stark: {
    label: 'STaRK (QA CSV and split files)',
    inputs: [
      { kind: 'queries', label: 'Query file (CSV)', accept: '.csv', required: true, help: 'The header id,query,answer_ids, optionally with answer_ids_source.' },
      SPLITS,
    ],
  },
  trec: {
    label: 'TREC (topics and qrels)',
    inputs: [
      { kind: 'topics', label: 'Topics file', required: true, help: 'One query a line: <qid> <query text>.' },
      { kind: 'qrels', label: 'Qrels file', required: false, help: 'Optional: <qid> <iter> <entity id> <grade> lines; grades above 0 are answers.' },
      SPLITS,
    ],
  },
  jsonl: {
    label: 'JSONL (one query a line)',
    inputs: [
      { kind: 'queries', label: 'Query file (JSONL)', accept: '.jsonl,.ndjson,.json', required: true, help: '{"id", "query", "answer_ids", "answer_ids_source"?, "split"?, "metadata"?} a line.' },
    ],
  },
};

// Mirrors the server's rule (lib/queries/sets.ts), so a typo is caught before anything is uploaded.
const SET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/;
const MB = 1024 * 1024;
const INPUT = 'rounded border border-slate-300 px-2 py-1';

interface Progress {
  name: string;
  loaded: number;
  total: number;
}

type FieldErrors = Partial<Record<'name' | FileKind, string>>;

/**
 * Uploads the chosen files one by one, then asks the server to import them as a query set. The server
 * checks everything before writing anything; its per-line problems are shown in a table.
 */
export function QuerySetImportForm({ slug, maxUploadBytes }: { slug: string; maxUploadBytes: number }) {
  const router = useRouter();
  const [format, setFormat] = useState<QueryFormat>('stark');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [problems, setProblems] = useState<LineProblem[]>([]);
  const [progress, setProgress] = useState<Progress[]>([]);
  const [busy, setBusy] = useState(false);
  const inputs = FORMATS[format].inputs;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get('name') ?? '').trim();
    // An empty file input still submits one nameless File.
    const chosen = inputs.flatMap((input) => form.getAll(input.kind)
      .filter((f): f is File => f instanceof File && f.name !== '')
      .map((file) => ({ file, kind: input.kind })));
    const errors = validate(name, inputs, chosen, maxUploadBytes);
    setFieldErrors(errors);
    setError(null);
    setProblems([]);
    if (Object.keys(errors).length) return;

    setBusy(true);
    setProgress(chosen.map(({ file }) => ({ name: file.name, loaded: 0, total: file.size })));
    try {
      const files: { uploadId: string; kind: FileKind }[] = [];
      for (const [i, { file, kind }] of chosen.entries()) {
        const uploadId = await uploadFile(file, (loaded) => setProgress((p) => p.map((x, j) => (j === i ? { ...x, loaded } : x))));
        files.push({ uploadId, kind });
      }
      const description = String(form.get('description') ?? '').trim();
      const license = String(form.get('license') ?? '').trim();
      const summary = await requestJson<QueryImportSummary>(`/api/kbs/${encodeURIComponent(slug)}/query-sets`, {
        method: 'POST',
        json: {
          name, format, files,
          origin: form.get('origin'),
          unknownIds: form.get('unknownIds'),
          replace: form.get('replace') === 'on',
          ...(description && { description }),
          ...(license && { license }),
        },
      });
      router.push(setPage(slug, summary.setName));
    } catch (err) {
      setError((err as Error).message);
      if (err instanceof ApiError) setProblems(err.problems);
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <div className="grid gap-4 md:grid-cols-2">
        <Field id="qs-name" label="Name" error={fieldErrors.name}
          help="Letters, digits, “.”, “_” and “-”, up to 80, starting with a letter or digit; it appears in the set’s address.">
          <input id="qs-name" name="name" placeholder="stark-prime-human" aria-invalid={!!fieldErrors.name} aria-describedby="qs-name-help" className={INPUT} />
        </Field>
        <Field id="qs-origin" label="Origin" help="How the queries were made: written by people, generated, or taken from elsewhere.">
          <select id="qs-origin" name="origin" defaultValue="imported" aria-describedby="qs-origin-help" className={INPUT}>
            {QUERY_ORIGINS.map((o) => <option key={o} value={o}>{o}</option>)}
          </select>
        </Field>
        <Field id="qs-description" label="Description">
          <textarea id="qs-description" name="description" rows={2} maxLength={5000} className={INPUT} />
        </Field>
        <Field id="qs-license" label="Licence">
          <input id="qs-license" name="license" maxLength={200} placeholder="CC BY 4.0" className={INPUT} />
        </Field>
        <Field id="qs-format" label="Format">
          <select id="qs-format" name="format" value={format} onChange={(e) => setFormat(e.target.value as QueryFormat)} className={INPUT}>
            {QUERY_FORMATS.map((f) => <option key={f} value={f}>{FORMATS[f].label}</option>)}
          </select>
        </Field>
      </div>
      {/* Keyed by format: switching format clears the files picked for the other one. */}
      <div key={format} className="grid gap-4 md:grid-cols-2">
        {inputs.map((input) => {
          const id = `qs-file-${input.kind}`;
          return (
            <Field key={input.kind} id={id} label={input.label + (input.required ? '' : ' (optional)')} help={input.help} error={fieldErrors[input.kind]}>
              <input id={id} name={input.kind} type="file" accept={input.accept} multiple={input.multiple}
                aria-invalid={!!fieldErrors[input.kind]} aria-describedby={`${id}-help`} className={INPUT} />
            </Field>
          );
        })}
      </div>
      <fieldset className="space-y-1" aria-describedby="qs-unknown-help">
        <legend className="mb-1">Answer or seed ids the knowledge base does not have</legend>
        <label className="flex items-center gap-2"><input type="radio" name="unknownIds" value="reject" defaultChecked />Reject the import and list them</label>
        <label className="flex items-center gap-2"><input type="radio" name="unknownIds" value="keep" />Keep them, marked as unresolved</label>
        <p id="qs-unknown-help" className="text-xs text-slate-500">
          Answers are matched to the knowledge base’s external entity ids. Keep unresolved ids when the set was made for a larger
          version of the knowledge base: they count as answers in every metric, but no entity page shows them.
        </p>
      </fieldset>
      <label className="flex items-center gap-2"><input name="replace" type="checkbox" />Replace the queries of an existing set with this name</label>
      {progress.length > 0 && <UploadProgress files={progress} />}
      {error && <p role="alert" className="rounded bg-red-50 px-3 py-2 text-red-700">{error}</p>}
      {problems.length > 0 && <ProblemTable problems={problems} caption="Problems in the files; nothing was imported." />}
      <button type="submit" disabled={busy} className="rounded bg-blue-600 px-3 py-1.5 font-medium text-white hover:bg-blue-700 disabled:opacity-60">
        {busy ? 'Importing…' : 'Import query set'}
      </button>
    </form>
  );
}

function validate(name: string, inputs: FileInput[], chosen: { file: File; kind: FileKind }[], maxUploadBytes: number): FieldErrors {
  const errors: FieldErrors = {};
  if (!SET_NAME.test(name)) errors.name = 'The name must be 1 to 80 letters, digits, “.”, “_” or “-”, starting with a letter or digit.';
  for (const input of inputs) {
    const files = chosen.filter((c) => c.kind === input.kind).map((c) => c.file);
    const tooBig = files.filter((f) => f.size > maxUploadBytes);
    const empty = files.filter((f) => f.size === 0);
    if (input.required && !files.length) errors[input.kind] = `Pick the ${input.label[0]!.toLowerCase()}${input.label.slice(1)}.`;
    else if (tooBig.length) errors[input.kind] = `${tooBig.map((f) => f.name).join(', ')} exceeds the upload limit of ${Math.floor(maxUploadBytes / MB)} MB.`;
    else if (empty.length) errors[input.kind] = `${empty.map((f) => f.name).join(', ')} is empty.`;
  }
  return errors;
}

function UploadProgress({ files }: { files: Progress[] }) {
  return (
    <ul className="space-y-1" aria-label="Uploads">
      {files.map((f, i) => (
        <li key={i} className="flex items-center gap-3">
          <span className="w-56 truncate font-mono">{f.name}</span>
          <progress aria-label={`Upload of ${f.name}`} value={f.loaded} max={f.total || 1} className="h-2 flex-1" />
          <span className="w-12 text-right tabular-nums text-slate-600">{f.total ? Math.floor((100 * f.loaded) / f.total) : 100}%</span>
        </li>
      ))}
    </ul>
  );
}
