/** Renders a structured entity document of any shape: fields, lists, nested objects. */
export function DocumentView({ document }: { document: Record<string, unknown> }) {
  const entries = Object.entries(document).filter(([, v]) => !isEmpty(v));
  if (entries.length === 0) return <p className="text-sm text-slate-500">This entity has no document.</p>;
  return <FieldList entries={entries} />;
}

function FieldList({ entries }: { entries: [string, unknown][] }) {
  return (
    <dl className="space-y-2 text-sm">
      {entries.map(([key, value]) => (
        <div key={key}>
          <dt className="font-medium capitalize text-slate-700">{key.replace(/_/g, ' ')}</dt>
          <dd className="mt-0.5 text-slate-800"><Value value={value} /></dd>
        </div>
      ))}
    </dl>
  );
}

function Value({ value }: { value: unknown }) {
  if (Array.isArray(value)) {
    const items = value.filter((v) => !isEmpty(v));
    if (items.every((v) => typeof v !== 'object')) return <>{items.map(String).join(', ')}</>;
    return (
      <ol className="ml-4 list-decimal space-y-1">
        {items.map((item, i) => <li key={i}><Value value={item} /></li>)}
      </ol>
    );
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => !isEmpty(v));
    return (
      <span className="block rounded bg-slate-50 px-2 py-1">
        {entries.map(([k, v]) => (
          <span key={k} className="block"><span className="text-slate-500">{k.replace(/_/g, ' ')}:</span> <Value value={v} /></span>
        ))}
      </span>
    );
  }
  return <span className="whitespace-pre-line">{String(value)}</span>;
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}
