import type { ItemSaveState } from './use-answers';

const WORDS: Record<Exclude<ItemSaveState, 'failed'>, string> = {
  none: 'No answers yet',
  saving: 'Saving…',
  saved: 'Saved',
};

/** Whether this item's answers are saved; a failed save says why and offers to send it again. */
export function SaveStatus({ state, problem, othersUnsaved, onRetry }: {
  state: ItemSaveState;
  problem: string | null;
  /** Answers to other items failed to save. */
  othersUnsaved: boolean;
  onRetry: () => void;
}) {
  const retry = (
    <button type="button" onClick={onRetry} className="ml-2 rounded border border-red-600 bg-white px-2 py-0.5 text-red-800 hover:bg-red-100">Retry</button>
  );
  return (
    <div className="space-y-2 text-sm">
      {state === 'failed' ? (
        <p role="alert" data-testid="save-status" data-state="failed" className="rounded bg-red-50 px-3 py-2 text-red-800">
          Not saved: {problem}. It is sent again with your next change, or now: {retry}
        </p>
      ) : (
        <p role="status" data-testid="save-status" data-state={state} className={state === 'saved' ? 'text-green-700' : 'text-slate-600'}>{WORDS[state]}</p>
      )}
      {othersUnsaved && (
        <p role="alert" className="rounded bg-red-50 px-3 py-2 text-red-800">Answers to an earlier item are not saved: {problem}. {retry}</p>
      )}
    </div>
  );
}
