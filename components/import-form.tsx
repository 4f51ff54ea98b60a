'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent, type ReactNode } from 'react';
import { fetchJson } from '@/lib/client/fetch-json';
import { uploadFile } from './upload-file';

export interface FormatOption {
  id: string;
  hint: string;
}

interface FileProgress {
  name: string;
  loaded: number;
  total: number;
}

type Field = 'slug' | 'files' | 'maxErrors';
type FieldErrors = Partial<Record<Field, string>>;

const SLUG = /^[a-z0-9-]{2,64}$/;
const MB = 1024 * 1024;
const INPUT = 'rounded border border-slate-300 px-2 py-1';

/**
 * Uploads the chosen files one by one (XMLHttpRequest with the File as the body, so the browser streams
 * it from disk and reports progress), starts the import, and goes to its job page.
 */
export function ImportForm({ formats, maxUploadBytes }: { formats: FormatOption[]; maxUploadBytes: number }) {
  const router = useRouter();
  const [format, setFormat] = useState(formats[0]!.id);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<FileProgress[]>([]);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    // An empty file input still submits one nameless File.
    const files = form.getAll('files').filter((f): f is File => f instanceof File && f.name !== '');
    const slug = String(form.get('slug') ?? '').trim();
    const maxErrors = Number(form.get('maxErrors'));
    const errors = validate(slug, files, maxErrors, maxUploadBytes);
    setFieldErrors(errors);
    setError(null);
    if (Object.keys(errors).length) return;

    setBusy(true);
    setProgress(files.map((f) => ({ name: f.name, loaded: 0, total: f.size })));
    try {
      const uploads: string[] = [];
      for (const [i, file] of files.entries()) {
        uploads.push(await uploadFile(file, (loaded) => setProgress((p) => p.map((x, j) => (j === i ? { ...x, loaded } : x)))));
      }
      const name = String(form.get('name') ?? '').trim();
      const { jobId } = await fetchJson<{ jobId: number }>('/api/imports', {
        method: 'POST',
        body: JSON.stringify({
          slug,
          ...(name && { name }),
          format,
          uploads,
          onError: form.get('onError'),
          maxErrors,
          replace: form.get('replace') === 'on',
          visibility: form.get('public') === 'on' ? 'PUBLIC' : 'PRIVATE',
        }),
      });
      router.push(`/imports/${jobId}`);
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  }

  const hint = formats.find((f) => f.id === format)?.hint;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <div className="grid gap-4 md:grid-cols-2">
        <Field id="import-slug" label="Slug" help="Lowercase letters, digits and “-”: the knowledge base’s address." error={fieldErrors.slug}>
          <input id="import-slug" name="slug" placeholder="primekg-ibd" aria-invalid={!!fieldErrors.slug} aria-describedby="import-slug-help" className={INPUT} />
        </Field>
        <Field id="import-name" label="Display name">
          <input id="import-name" name="name" placeholder="the slug when empty" className={INPUT} />
        </Field>
        <Field id="import-format" label="Format" help={hint}>
          <select id="import-format" name="format" value={format} onChange={(e) => setFormat(e.target.value)} aria-describedby="import-format-help" className={INPUT}>
            {formats.map((f) => <option key={f.id} value={f.id}>{f.id}</option>)}
          </select>
        </Field>
        <Field id="import-files" label="Files" error={fieldErrors.files}
          help={`Keep the files’ names: formats tell files apart by name. At most ${Math.floor(maxUploadBytes / MB).toLocaleString('en')} MB each.`}>
          <input id="import-files" name="files" type="file" multiple aria-invalid={!!fieldErrors.files} aria-describedby="import-files-help" className={INPUT} />
        </Field>
        <Field id="import-on-error" label="On bad rows">
          <select id="import-on-error" name="onError" defaultValue="stop" className={INPUT}>
            <option value="stop">Stop at the first bad row</option>
            <option value="skip">Skip bad rows</option>
          </select>
        </Field>
        <Field id="import-max-errors" label="Max errors" help="When skipping: how many bad rows to accept before stopping." error={fieldErrors.maxErrors}>
          <input id="import-max-errors" name="maxErrors" type="number" min={0} max={1_000_000} defaultValue={1000}
            aria-invalid={!!fieldErrors.maxErrors} aria-describedby="import-max-errors-help" className={INPUT} />
        </Field>
      </div>
      <label className="flex items-center gap-2"><input name="replace" type="checkbox" />Replace an existing knowledge base with this slug</label>
      <label className="flex items-center gap-2"><input name="public" type="checkbox" />Public: every signed-in user can see it</label>
      {progress.length > 0 && <UploadProgress files={progress} />}
      {error && <p role="alert" className="rounded bg-red-50 px-3 py-2 text-red-700">{error}</p>}
      <button type="submit" disabled={busy} className="rounded bg-blue-600 px-3 py-1.5 font-medium text-white hover:bg-blue-700 disabled:opacity-60">
        {busy ? 'Importing…' : 'Start import'}
      </button>
    </form>
  );
}

function validate(slug: string, files: File[], maxErrors: number, maxUploadBytes: number): FieldErrors {
  const errors: FieldErrors = {};
  if (!SLUG.test(slug)) errors.slug = 'The slug must be 2 to 64 lowercase letters, digits and “-”.';
  const tooBig = files.filter((f) => f.size > maxUploadBytes);
  const empty = files.filter((f) => f.size === 0);
  if (!files.length) errors.files = 'Pick the files to import.';
  else if (tooBig.length) errors.files = `${tooBig.map((f) => f.name).join(', ')} exceeds the upload limit of ${Math.floor(maxUploadBytes / MB)} MB.`;
  else if (empty.length) errors.files = `${empty.map((f) => f.name).join(', ')} is empty.`;
  if (!Number.isInteger(maxErrors) || maxErrors < 0 || maxErrors > 1_000_000) errors.maxErrors = 'Max errors must be a whole number from 0 to 1,000,000.';
  return errors;
}

/** A labelled control with its help line and, after a failed check, its error. */
function Field({ id, label, help, error, children }: { id: string; label: string; help?: string; error?: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id}>{label}</label>
      {children}
      {help && <span id={`${id}-help`} className="text-xs text-slate-500">{help}</span>}
      {error && <span role="alert" className="text-red-700">{error}</span>}
    </div>
  );
}

function UploadProgress({ files }: { files: FileProgress[] }) {
  return (
    <ul className="space-y-1" aria-label="Uploads">
      {files.map((f) => (
        <li key={f.name} className="flex items-center gap-3">
          <span className="w-56 truncate font-mono">{f.name}</span>
          <progress aria-label={`Upload of ${f.name}`} value={f.loaded} max={f.total || 1} className="h-2 flex-1" />
          <span className="w-12 text-right tabular-nums text-slate-600">{f.total ? Math.floor((100 * f.loaded) / f.total) : 100}%</span>
        </li>
      ))}
    </ul>
  );
}
