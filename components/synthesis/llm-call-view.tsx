import type { ReactNode } from 'react';
import type { StoredLlmCall } from '@/lib/llm/calls';
import { fmtCount } from '../queries/format';
import { When } from '@/components/when';

/** A response as sent, or indented when it is JSON (what the prompts ask for). */
function readable(response: string): string {
  try {
    return JSON.stringify(JSON.parse(response), null, 2);
  } catch {
    return response;
  }
}

const PRE = 'whitespace-pre-wrap break-words rounded bg-slate-50 p-2 text-xs';

/** One stored LLM call: who it was for, the model, outcome, attempts, tokens and latency; the messages and the response. */
export function LlmCallView({ call }: { call: StoredLlmCall }) {
  return (
    <div className="space-y-4 text-sm">
      <dl className="grid grid-cols-2 gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-4" data-testid="llm-call-facts">
        <Fact label="Model"><code>{call.model}</code> at {call.baseUrlHost}</Fact>
        <Fact label="Status"><span data-testid="llm-call-status" className={call.status === 'ok' ? 'text-green-700' : 'text-red-700'}>{call.status}</span>
          {call.httpStatus !== null && ` (HTTP ${call.httpStatus})`}</Fact>
        <Fact label="Attempts">{call.attempts}</Fact>
        <Fact label="Latency">{fmtCount(call.latencyMs)} ms</Fact>
        <Fact label="Tokens">{fmtCount(call.totalTokens)}{call.promptTokens !== null && ` (${fmtCount(call.promptTokens)} prompt, ${fmtCount(call.completionTokens ?? 0)} completion)`}</Fact>
        <Fact label="Prompt">{call.promptId ? <code>{call.promptId}@v{call.promptVersion}</code> : '—'}</Fact>
        <Fact label="Purpose">{call.purpose}{call.itemKey && <span className="block text-xs text-slate-500">{call.itemKey}</span>}</Fact>
        <Fact label="Made"><When at={call.createdAt} />{call.jobId !== null && <span className="block text-xs text-slate-500">synthesis job #{call.jobId}</span>}
          {call.studyId !== null && <span className="block text-xs text-slate-500">study #{call.studyId}</span>}</Fact>
      </dl>
      {call.error && <p role="alert" className="rounded bg-red-50 px-3 py-2 text-red-700" data-testid="llm-call-error">{call.error}</p>}
      <section aria-labelledby="messages-heading" className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="messages-heading" className="font-medium">Prompt messages</h2>
        {call.messages.map((m, i) => (
          <div key={i}>
            <h3 className="text-xs font-medium uppercase text-slate-500">{m.role}</h3>
            <pre className={PRE} data-testid="llm-call-message">{m.content}</pre>
          </div>
        ))}
      </section>
      <section aria-labelledby="response-heading" className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="response-heading" className="font-medium">Response</h2>
        {call.response === null ? <p className="text-slate-500">No response was received.</p>
          : <pre className={PRE} data-testid="llm-call-response">{readable(call.response)}</pre>}
      </section>
    </div>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0 break-words">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
