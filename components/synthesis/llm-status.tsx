import type { LlmStatus } from './api';

/** Which LLM the server would use, and the choice not to use it for this run. */
export function LlmStatusLine({ llm, useLlm, onUseLlm }: { llm: LlmStatus | undefined; useLlm: boolean; onUseLlm: (use: boolean) => void }) {
  if (!llm) return <p className="text-sm text-slate-500">Reading the LLM configuration…</p>;
  if (!llm.configured) {
    return (
      <p className="rounded border border-slate-200 bg-slate-50 px-3 py-2 text-sm" data-testid="llm-status">
        No LLM configured: the deterministic extractor, realiser and term-evidence filter will be used.
      </p>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-1 rounded border border-slate-200 bg-slate-50 px-3 py-2 text-sm">
      <p data-testid="llm-status">
        LLM: <code>{llm.model}</code>; filter {llm.filterModels.length === 1 ? 'model' : 'models'}{' '}
        {llm.filterModels.map((m, i) => <span key={m}>{i > 0 && ', '}<code>{m}</code></span>)}
      </p>
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={useLlm} onChange={(e) => onUseLlm(e.target.checked)} />
        Use the LLM
      </label>
      {!useLlm && <p className="w-full text-slate-600">Not using it: the deterministic extractor, realiser and term-evidence filter will be used.</p>}
    </div>
  );
}
