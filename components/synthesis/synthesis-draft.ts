import { ApiError } from '../queries/api';
import { fieldErrorsOf, type FieldErrors } from '../studies/study-draft';
import type { JobSpecBody } from './api';

/** The synthesis form's state, as typed; `specBody` turns it into the API's body. */
export interface SynthesisDraft {
  useLlm: boolean;
  /** Templates picked one by one, or every template whose answer sets measure within a range. */
  mode: 'chosen' | 'range';
  chosen: string[];
  rangeMin: string;
  rangeMax: string;
  querySet: string;
  count: string;
  seed: string;
  maxAnswers: string;
  agreement: 'all' | 'majority';
  /** Comma-separated model names; empty: the server's configured filter models. */
  filterModels: string;
}

export const initialDraft = (useLlm: boolean): SynthesisDraft => ({
  useLlm, mode: 'chosen', chosen: [], rangeMin: '1', rangeMax: '20',
  querySet: '', count: '20', seed: '0', maxAnswers: '20', agreement: 'all', filterModels: '',
});

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/;
const MODEL = /^[^\s,]{1,200}$/;
const whole = (s: string) => (s.trim() === '' ? NaN : Number(s));
const inRange = (n: number, lo: number, hi: number) => Number.isInteger(n) && n >= lo && n <= hi;

/**
 * The body for a preview (no set name, `count` five) or a job, or the problems the form sees before sending
 * (the server checks everything again).
 */
export function specBody(draft: SynthesisDraft, purpose: 'preview' | 'job'): { body: JobSpecBody } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const name = draft.querySet.trim();
  if (purpose === 'job' && !NAME.test(name)) errors.querySet = 'Use 1 to 80 letters, digits, “.”, “_” or “-”, starting with a letter or digit.';
  const count = whole(draft.count);
  if (purpose === 'job' && !inRange(count, 1, 10_000)) errors.count = 'A whole number from 1 to 10,000.';
  const seed = whole(draft.seed);
  if (!inRange(seed, 0, 2_147_483_647)) errors.seed = 'A whole number, 0 or more.';
  const maxAnswers = whole(draft.maxAnswers);
  if (!inRange(maxAnswers, 1, 1000)) errors.maxAnswers = 'A whole number from 1 to 1,000.';
  const lo = whole(draft.rangeMin);
  const hi = whole(draft.rangeMax);
  if (draft.mode === 'chosen' && draft.chosen.length === 0) errors.templates = 'Choose at least one template, or all within a range of answer-set sizes.';
  if (draft.mode === 'range' && !(inRange(lo, 1, 1000) && inRange(hi, lo, 1000))) errors.templates = 'Give a range of whole numbers from 1 to 1,000, the first not above the second.';
  const models = draft.filterModels.split(',').map((m) => m.trim()).filter(Boolean);
  if (draft.useLlm && models.some((m) => !MODEL.test(m))) errors.filterModels = 'Model names separated by commas, without spaces inside a name.';
  if (models.length > 8) errors.filterModels = 'At most 8 filter models.';
  if (Object.keys(errors).length) return { errors };
  return {
    body: {
      ...(purpose === 'job' ? { querySet: name } : {}),
      templates: draft.mode === 'chosen' ? draft.chosen : { minAnswers: lo, maxAnswers: hi },
      count: purpose === 'job' ? count : 5,
      seed, useLlm: draft.useLlm, agreement: draft.agreement, maxAnswers,
      ...(draft.useLlm && models.length ? { filterModels: models } : {}),
    },
  };
}

/** The server's refusal by field; a 409 is about the set's name (the study form's reading names it "name"). */
export function synthesisErrorsOf(err: unknown): FieldErrors {
  if (!(err instanceof ApiError)) return {};
  const { name, ...errors } = fieldErrorsOf(err);
  return name === undefined ? errors : { ...errors, querySet: name };
}
