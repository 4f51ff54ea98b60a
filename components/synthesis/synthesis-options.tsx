import type { FieldErrors } from '../studies/study-draft';
import { Field } from '../queries/field';
import type { LlmStatus } from './api';
import type { SynthesisDraft } from './synthesis-draft';

const INPUT = 'rounded border border-slate-300 px-2 py-1';

/** The new set's name and the run's size, seed, answer bound, and (with the LLM) how the filter judges agree. */
export function SynthesisOptions({ draft, patch, errors, llm }: { draft: SynthesisDraft; patch: (p: Partial<SynthesisDraft>) => void; errors: FieldErrors; llm: LlmStatus | undefined }) {
  const withLlm = draft.useLlm && !!llm?.configured;
  return (
    <fieldset className="space-y-3">
      <legend className="mb-1 text-base font-medium">Options</legend>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Field id="so-set" label="Query set name" help="A new set; letters, digits, “.”, “_” and “-”." error={errors.querySet}>
          <input id="so-set" value={draft.querySet} onChange={(e) => patch({ querySet: e.target.value })} placeholder="synthesized-1" maxLength={80}
            aria-invalid={!!errors.querySet} aria-describedby="so-set-help" className={INPUT} />
        </Field>
        <Field id="so-count" label="Queries" help="How many queries to keep (1–10,000)." error={errors.count}>
          <input id="so-count" type="number" min={1} max={10000} value={draft.count} onChange={(e) => patch({ count: e.target.value })}
            aria-invalid={!!errors.count} aria-describedby="so-count-help" className={INPUT} />
        </Field>
        <Field id="so-seed" label="Seed" help="The same seed and templates give the same seeds and answers." error={errors.seed}>
          <input id="so-seed" type="number" min={0} value={draft.seed} onChange={(e) => patch({ seed: e.target.value })}
            aria-invalid={!!errors.seed} aria-describedby="so-seed-help" className={INPUT} />
        </Field>
        <Field id="so-max" label="Max answers" help="Queries keeping more answers than this are dropped." error={errors.maxAnswers}>
          <input id="so-max" type="number" min={1} max={1000} value={draft.maxAnswers} onChange={(e) => patch({ maxAnswers: e.target.value })}
            aria-invalid={!!errors.maxAnswers} aria-describedby="so-max-help" className={INPUT} />
        </Field>
      </div>
      {withLlm && (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="so-agreement" label="Agreement" help="Of the filter models, which must keep an answer.">
            <select id="so-agreement" value={draft.agreement} onChange={(e) => patch({ agreement: e.target.value as SynthesisDraft['agreement'] })}
              aria-describedby="so-agreement-help" className={INPUT}>
              <option value="all">All of them</option>
              <option value="majority">A majority</option>
            </select>
          </Field>
          <Field id="so-filter-models" label="Filter models" help={`Comma-separated; empty: ${llm!.filterModels.join(', ')}.`} error={errors.filterModels}>
            <input id="so-filter-models" value={draft.filterModels} onChange={(e) => patch({ filterModels: e.target.value })} maxLength={2000}
              aria-invalid={!!errors.filterModels} aria-describedby="so-filter-models-help" className={INPUT} />
          </Field>
        </div>
      )}
    </fieldset>
  );
}
