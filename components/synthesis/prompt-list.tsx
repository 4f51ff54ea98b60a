'use client';

import { useQuery } from '@tanstack/react-query';
import { requestJson } from '../queries/api';
import { PROMPTS_API, type PromptView } from './api';

/** The versioned prompt templates the LLM steps render (kept in the repository), each text behind a disclosure. */
export function PromptList() {
  const prompts = useQuery({ queryKey: ['llm-prompts'], queryFn: () => requestJson<{ items: PromptView[] }>(PROMPTS_API), staleTime: Infinity });
  return (
    <section aria-labelledby="prompts-heading" className="space-y-2 text-sm">
      <h2 id="prompts-heading" className="text-lg font-medium">Prompts in use</h2>
      {prompts.error && <p role="alert" className="text-red-700">Could not load the prompts: {prompts.error.message}</p>}
      <ul className="space-y-1" data-testid="prompt-list">
        {prompts.data?.items.map((p) => (
          <li key={p.id}>
            <details className="rounded border border-slate-200 bg-white">
              <summary className="cursor-pointer px-2 py-1.5">
                <code>{p.id}@v{p.version}</code> <span className="text-slate-600">{p.description}</span>
              </summary>
              <div className="space-y-2 border-t border-slate-100 p-2">
                <p className="text-xs text-slate-500">Variables: {p.vars.join(', ')}</p>
                <h3 className="text-xs font-medium uppercase text-slate-500">System</h3>
                <pre className="whitespace-pre-wrap break-words rounded bg-slate-50 p-2 text-xs">{p.system}</pre>
                <h3 className="text-xs font-medium uppercase text-slate-500">User</h3>
                <pre className="whitespace-pre-wrap break-words rounded bg-slate-50 p-2 text-xs">{p.user}</pre>
              </div>
            </details>
          </li>
        ))}
      </ul>
    </section>
  );
}
