'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { fetchJson } from '@/lib/client/fetch-json';
import type { SavedView, SavedViewState, SavedViewSummary } from '@/lib/kb/saved-views';

type Point = { x: number; y: number };
/** A graph view's state without its positions, as the explorer's URL holds it. */
export type ExplorerView = Omit<SavedViewState, 'positions'>;

const viewsApi = (slug: string) => `/api/kbs/${encodeURIComponent(slug)}/views`;
const listKey = (slug: string) => ['saved-views', slug];
const viewKey = (slug: string, id: number) => ['saved-view', slug, id];

/** The address that opens a saved view for anyone who may see it. */
export const viewLink = (slug: string, id: number) => `${window.location.origin}/kb/${encodeURIComponent(slug)}/graph?view=${id}`;

/** Tenths of a unit are finer than a screen pixel at any useful zoom, and keep the stored view small. */
const rounded = (positions: Record<string, Point>): Record<string, Point> =>
  Object.fromEntries(Object.entries(positions).map(([id, p]) => [id, { x: Math.round(p.x * 10) / 10, y: Math.round(p.y * 10) / 10 }]));

/** The same nodes: positions saved for one view fit another only then (the layout does not matter). */
const sameView = (a: ExplorerView, b: ExplorerView) =>
  a.entity === b.entity && a.hops === b.hops && a.dir === b.dir && a.rel.join('\n') === b.rel.join('\n') && a.expand.join(',') === b.expand.join(',');

/**
 * The saved view the URL names (`?view=`): once loaded, the URL is brought to its state (`show`), and while the
 * URL still shows that state the view's node positions are returned for the canvas to draw them where they were.
 */
export function useOpenedView(kbSlug: string, id: number | null, current: ExplorerView | null, show: (view: SavedView) => void) {
  const { data, error } = useQuery({
    queryKey: viewKey(kbSlug, id ?? 0),
    enabled: id !== null,
    queryFn: () => fetchJson<SavedView>(`${viewsApi(kbSlug)}/${id}`),
  });
  const opened = id !== null && data?.id === id ? data : null;
  const showing = opened !== null && current !== null && sameView(opened.state, current);
  // Once per version of the view: a state the explorer cannot show exactly (a relation since gone) must not loop.
  const shown = useRef('');
  useEffect(() => {
    const version = opened ? `${opened.id}@${opened.updatedAt}` : '';
    if (opened && !showing && shown.current !== version) {
      shown.current = version;
      show(opened);
    }
  }, [opened, showing, show]);
  const positions = useMemo(() => (showing ? new Map(Object.entries(opened.state.positions)) : undefined), [showing, opened]);
  return { positions, error: id !== null ? error : null };
}

interface SavedViewsProps {
  kbSlug: string;
  /** The view on screen, or null before an entity is chosen (nothing to save then). */
  current: ExplorerView | null;
  /** The saved view the page shows, if any. */
  openId: number | null;
  /** Where the canvas draws each node now. */
  readPositions: () => Record<string, Point>;
  onOpen: (view: SavedView) => void;
  onDeleted: (id: number) => void;
}

/** Save the graph view under a name; open, rename, share, copy the link of, or delete saved ones. */
export function SavedViews({ kbSlug, current, openId, readPositions, onOpen, onDeleted }: SavedViewsProps) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [share, setShare] = useState(false);
  const [status, setStatus] = useState<{ text: string; error?: boolean; link?: string } | null>(null);
  const [replaceId, setReplaceId] = useState<number | null>(null);
  const { data, error } = useQuery({ queryKey: listKey(kbSlug), queryFn: () => fetchJson<{ items: SavedViewSummary[] }>(viewsApi(kbSlug)) });
  const views = data?.items ?? [];

  const changed = (view?: SavedView) => {
    if (view) queryClient.setQueryData(viewKey(kbSlug, view.id), view);
    return queryClient.invalidateQueries({ queryKey: listKey(kbSlug) });
  };
  const failed = (err: Error) => setStatus({ text: err.message, error: true });

  const save = useMutation({
    mutationFn: (replace: number | null) => {
      const body = { state: { ...current!, positions: rounded(readPositions()) } };
      return replace === null
        ? fetchJson<SavedView>(viewsApi(kbSlug), { method: 'POST', body: JSON.stringify({ ...body, name, shared: share }) })
        : fetchJson<SavedView>(`${viewsApi(kbSlug)}/${replace}`, { method: 'PATCH', body: JSON.stringify(body) });
    },
    onSuccess: async (view) => {
      setStatus({ text: `Saved “${view.name}” with ${view.positions.toLocaleString('en')} node positions.` });
      setName('');
      setReplaceId(null);
      await changed(view);
    },
    onError: (err: Error) => {
      // A taken name of one's own can be replaced with the view on screen.
      setReplaceId(views.find((v) => v.mine && v.name === name.trim())?.id ?? null);
      failed(err);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setStatus(null);
    save.mutate(null);
  };

  const copyLink = async (view: SavedViewSummary) => {
    try {
      // A link is for others: an own view that is not shared yet is shared first.
      if (!view.shared) await changed(await fetchJson<SavedView>(`${viewsApi(kbSlug)}/${view.id}`, { method: 'PATCH', body: JSON.stringify({ shared: true }) }));
      const link = viewLink(kbSlug, view.id);
      const copied = await navigator.clipboard?.writeText(link).then(() => true, () => false);
      setStatus({
        text: `${copied ? 'Link copied' : 'Copy this link'}${view.shared ? '' : '; the view is now shared with everyone who can read this knowledge base'}:`,
        link,
      });
    } catch (err) {
      failed(err as Error);
    }
  };

  return (
    <section className="space-y-2 rounded-lg border border-slate-200 bg-white p-3 text-sm" aria-labelledby="saved-views-title" data-testid="saved-views">
      <h2 id="saved-views-title" className="font-medium">Saved views</h2>
      {current && (
        <form className="space-y-1" onSubmit={submit} data-testid="save-view-form">
          <label className="flex flex-col gap-1">
            <span className="text-xs font-medium text-slate-600">Name of this view</span>
            <input className="rounded border border-slate-300 px-2 py-1" value={name} maxLength={100} required onChange={(e) => setName(e.target.value)} />
          </label>
          <label className="flex items-center gap-1 text-xs text-slate-600">
            <input type="checkbox" checked={share} onChange={(e) => setShare(e.target.checked)} />
            Shared with everyone who can read this knowledge base
          </label>
          <div className="flex gap-2">
            <button type="submit" className="rounded border border-slate-300 px-3 py-1 hover:bg-slate-50 disabled:opacity-50" disabled={save.isPending || !name.trim()}>Save view</button>
            {replaceId !== null && (
              <button type="button" className="rounded border border-amber-400 px-3 py-1 hover:bg-amber-50" onClick={() => save.mutate(replaceId)}>Replace it with this view</button>
            )}
          </div>
        </form>
      )}
      {status && (
        <p role={status.error ? 'alert' : 'status'} className={status.error ? 'text-red-700' : 'text-slate-700'} data-testid="saved-views-status">
          {status.text}
          {status.link && <> <input readOnly aria-label="Link to the view" className="mt-1 w-full rounded border border-slate-200 px-1 text-xs" value={status.link} data-testid="saved-view-link" onFocus={(e) => e.target.select()} /></>}
        </p>
      )}
      {error && <p role="alert" className="text-red-700">Could not list the saved views: {error.message}</p>}
      {data && views.length === 0 && <p className="text-slate-500">No saved views yet.</p>}
      <ul className="divide-y divide-slate-100" data-testid="saved-view-list">
        {views.map((v) => (
          <SavedViewItem key={v.id} kbSlug={kbSlug} view={v} open={v.id === openId} onOpen={onOpen} onDeleted={() => onDeleted(v.id)} onCopyLink={() => copyLink(v)}
            onChanged={(view) => { setStatus(null); return changed(view); }} onError={failed} />
        ))}
      </ul>
    </section>
  );
}

interface ItemProps {
  kbSlug: string;
  view: SavedViewSummary;
  open: boolean;
  onOpen: (view: SavedView) => void;
  onDeleted: () => void;
  onCopyLink: () => void;
  onChanged: (view?: SavedView) => Promise<unknown>;
  onError: (err: Error) => void;
}

function SavedViewItem({ kbSlug, view, open, onOpen, onDeleted, onCopyLink, onChanged, onError }: ItemProps) {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<'idle' | 'rename' | 'delete'>('idle');
  const [name, setName] = useState(view.name);
  const url = `${viewsApi(kbSlug)}/${view.id}`;
  const patch = useMutation({
    mutationFn: (body: { name?: string; shared?: boolean }) => fetchJson<SavedView>(url, { method: 'PATCH', body: JSON.stringify(body) }),
    onSuccess: async (saved) => { setMode('idle'); await onChanged(saved); },
    onError,
  });
  const remove = useMutation({
    mutationFn: () => fetchJson<{ deleted: number }>(url, { method: 'DELETE' }),
    onSuccess: async () => { onDeleted(); await onChanged(); },
    onError,
  });
  const openIt = async () => {
    try {
      onOpen(await queryClient.fetchQuery({ queryKey: viewKey(kbSlug, view.id), queryFn: () => fetchJson<SavedView>(url), staleTime: 0 }));
    } catch (err) {
      onError(err as Error);
    }
  };
  const button = 'rounded border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-50';

  return (
    <li className="space-y-1 py-2" data-testid="saved-view">
      {mode === 'rename' ? (
        <form className="flex gap-1" onSubmit={(e) => { e.preventDefault(); patch.mutate({ name }); }}>
          <input className="min-w-0 flex-1 rounded border border-slate-300 px-1" aria-label={`New name for ${view.name}`} value={name} maxLength={100} required onChange={(e) => setName(e.target.value)} />
          <button type="submit" className={button}>Rename</button>
          <button type="button" className={button} onClick={() => { setName(view.name); setMode('idle'); }}>Cancel</button>
        </form>
      ) : (
        <button type="button" className={`block text-left font-medium text-blue-700 hover:underline ${open ? 'underline' : ''}`} aria-current={open ? 'true' : undefined} onClick={openIt}>
          {view.name}
        </button>
      )}
      <p className="text-xs text-slate-500">
        {view.entityName ?? `entity ${view.entity}`} · {view.hops} {view.hops === 1 ? 'hop' : 'hops'}
        {' · '}{view.mine ? (view.shared ? 'shared' : 'only you') : `shared by ${view.ownerName}`}
      </p>
      {mode === 'delete' ? (
        <p className="flex flex-wrap items-center gap-1 text-xs">
          Delete “{view.name}”?
          <button type="button" className={`${button} border-red-300 text-red-700`} onClick={() => remove.mutate()}>Delete</button>
          <button type="button" className={button} onClick={() => setMode('idle')}>Keep</button>
        </p>
      ) : (
        <div className="flex flex-wrap gap-1">
          <button type="button" className={button} onClick={onCopyLink} aria-label={`Copy link to ${view.name}`}>Copy link</button>
          {view.editable && (
            <>
              <button type="button" className={button} onClick={() => setMode('rename')} aria-label={`Rename ${view.name}`}>Rename</button>
              <button type="button" className={button} onClick={() => patch.mutate({ shared: !view.shared })}>{view.shared ? 'Stop sharing' : 'Share'}</button>
              <button type="button" className={button} onClick={() => setMode('delete')} aria-label={`Delete ${view.name}`}>Delete</button>
            </>
          )}
        </div>
      )}
    </li>
  );
}
