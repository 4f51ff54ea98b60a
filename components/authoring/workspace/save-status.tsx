import type { SaveState } from './use-autosave';

const WORDS: Record<'saved' | 'saving' | 'unsaved' | 'offline', string> = {
  saved: 'Saved',
  saving: 'Saving…',
  unsaved: 'Unsaved changes',
  offline: 'Offline — kept on this device, retrying',
};

/** Where the draft stands: a short status, or what went wrong and what the author can do about it. */
export function SaveStatus({ state, localText, onKeepServer, onKeepLocal }: {
  state: SaveState;
  /** The text on this device, shown beside the server's in a conflict. */
  localText: string;
  onKeepServer: () => void;
  onKeepLocal: () => void;
}) {
  if (state.kind === 'conflict') {
    return (
      <div role="alert" className="space-y-2 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900" data-testid="save-status">
        <p className="font-medium">This draft was saved elsewhere (another tab or device) after the text kept on this device.</p>
        <div className="grid gap-2 sm:grid-cols-2">
          <div><p className="text-xs font-medium">Saved elsewhere</p><p className="whitespace-pre-wrap rounded bg-white p-2" data-testid="conflict-server">{state.server.draft.text || '(empty)'}</p></div>
          <div><p className="text-xs font-medium">On this device</p><p className="whitespace-pre-wrap rounded bg-white p-2" data-testid="conflict-local">{localText || '(empty)'}</p></div>
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="button" onClick={onKeepServer} className="rounded border border-slate-400 bg-white px-2 py-1 hover:bg-slate-50">Keep the saved version</button>
          <button type="button" onClick={onKeepLocal} className="rounded border border-red-600 bg-white px-2 py-1 text-red-800 hover:bg-red-100">Overwrite it with this device’s text</button>
        </div>
      </div>
    );
  }
  if (state.kind === 'closed' || state.kind === 'refused') {
    return (
      <p role="alert" className="rounded bg-red-50 px-3 py-2 text-sm text-red-800" data-testid="save-status">
        {state.kind === 'closed' ? 'Not saved: ' : 'Not saved, fix this and keep typing: '}{state.message}
      </p>
    );
  }
  return (
    <p role="status" data-testid="save-status" data-state={state.kind}
      className={`text-sm ${state.kind === 'offline' ? 'text-amber-700' : state.kind === 'saved' ? 'text-green-700' : 'text-slate-600'}`}>
      {WORDS[state.kind]}
    </p>
  );
}
