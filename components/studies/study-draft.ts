import { DEFAULT_DIMENSIONS, type Dimension } from '@/lib/studies/dimensions';
import type { StudyInput } from '@/lib/studies/create';
import { ApiError } from '../queries/api';

/**
 * The new-study form's state and its translation into the API's body. Rows carry a `uid` so React keeps
 * their inputs apart, and attention checks point at a dimension by uid, so renaming its key keeps the link.
 */

export interface SourceDraft {
  uid: number;
  querySet: string;
  /** A release number, or '' for the live set. */
  release: string;
  /** At most this many queries, or '' for all. */
  sample: string;
}

export type DimensionDraft = Dimension & {
  uid: number;
  /** Whether the key was typed; until then it follows the label. */
  keyEdited: boolean;
};

export interface CheckDraft {
  uid: number;
  text: string;
  dimensionUid: number | null;
  accept: number[];
}

export interface StudyDraft {
  name: string;
  instructions: string;
  consent: string;
  sources: SourceDraft[];
  dimensions: DimensionDraft[];
  itemsPerParticipant: string;
  participantsPerItem: string;
  showAnswers: boolean;
  allowEditsAfterFinish: boolean;
  seed: string;
  checks: CheckDraft[];
  /** datetime-local values (the browser's time zone), or ''. */
  opensAt: string;
  closesAt: string;
  studyLink: boolean;
  open: boolean;
}

// The initial rows have fixed uids (they name inputs, so server and browser must render the same ones);
// rows added later, in the browser only, count on from here.
let lastUid = 1000;
export const nextUid = () => ++lastUid;

export const emptySource = (uid = nextUid()): SourceDraft => ({ uid, querySet: '', release: '', sample: '' });

/** The form's start; `source` prefills the first source (a link from a query set's page). */
export function initialDraft(instructions: string, source?: { querySet: string; sample: string }): StudyDraft {
  return {
    name: '', instructions, consent: '', sources: [{ ...emptySource(1), ...source }],
    dimensions: DEFAULT_DIMENSIONS.map((d, i) => ({ ...structuredClone(d), uid: 2 + i, keyEdited: true })),
    itemsPerParticipant: '20', participantsPerItem: '3', showAnswers: false, allowEditsAfterFinish: false, seed: '0',
    checks: [], opensAt: '', closesAt: '', studyLink: true, open: false,
  };
}

/** A dimension key from its label: lower case, letters, digits and "_", starting with a letter. */
export function keyFromLabel(label: string): string {
  const key = label.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z0-9]+/g, '_').replace(/^[_0-9]+|_+$/g, '');
  return key.slice(0, 40) || 'dimension';
}

export function newDimension(kind: Dimension['kind'], taken: string[]): DimensionDraft {
  let n = 1;
  while (taken.includes(`custom_${n}`)) n++;
  const base = { uid: nextUid(), keyEdited: false, key: `custom_${n}`, label: `Custom ${n}`, question: '' };
  if (kind === 'scale') return { ...base, kind, min: 1, max: 5, anchors: {}, required: true };
  if (kind === 'binary') return { ...base, kind, anchors: { 0: 'No', 1: 'Yes' }, required: true };
  return { ...base, kind, required: false };
}

/** The points of a scale or binary dimension, or none while a scale's range is not a valid one. */
export function draftPoints(d: DimensionDraft): number[] {
  if (d.kind === 'text') return [];
  const [lo, hi] = d.kind === 'binary' ? [0, 1] : [d.min, d.max];
  if (!Number.isInteger(lo) || !Number.isInteger(hi) || hi <= lo || hi - lo > 10) return [];
  return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
}

/** Problems keyed by the body's path ("name", "sources.0.querySet", "dimensions.2.anchors", …). */
export type FieldErrors = Record<string, string>;

/** The messages at a path and below it, for a row that shows its fields' problems together. */
export function errorAt(errors: FieldErrors, path: string): string | undefined {
  const found = Object.entries(errors).filter(([k]) => k === path || k.startsWith(`${path}.`)).map(([, m]) => m);
  return found.length ? found.join(' ') : undefined;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/;
const wholeNumber = (s: string) => (s.trim() === '' ? NaN : Number(s));
const isoOf = (local: string) => (local ? new Date(local).toISOString() : null);

function cleanAnchors(anchors: Record<string, string>, pts: number[]): Record<string, string> {
  return Object.fromEntries(Object.entries(anchors).map(([k, v]) => [k, v.trim()]).filter(([k, v]) => v && pts.includes(Number(k))));
}

function dimensionBody(d: DimensionDraft): Dimension {
  const common = { key: d.key.trim(), label: d.label.trim(), question: d.question.trim(), required: d.required };
  if (d.kind === 'scale') return { ...common, kind: 'scale', min: d.min, max: d.max, anchors: cleanAnchors(d.anchors, draftPoints(d)) };
  if (d.kind === 'binary') return { ...common, kind: 'binary', anchors: cleanAnchors(d.anchors, [0, 1]) };
  return { ...common, kind: 'text' };
}

/** The API body, or the problems the form can see before sending (the server checks everything again). */
export function studyBody(draft: StudyDraft): { body: StudyInput } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const name = draft.name.trim();
  if (!NAME.test(name)) errors.name = 'Use 1 to 80 letters, digits, “.”, “_” or “-”, starting with a letter or digit.';
  draft.sources.forEach((s, i) => {
    if (!s.querySet) errors[`sources.${i}.querySet`] = 'Choose a query set.';
    if (s.sample && !(Number.isInteger(Number(s.sample)) && Number(s.sample) >= 1)) errors[`sources.${i}.sample`] = 'A whole number of queries, 1 or more, or empty for all.';
  });
  const ipp = wholeNumber(draft.itemsPerParticipant);
  const ppi = wholeNumber(draft.participantsPerItem);
  const seed = wholeNumber(draft.seed);
  if (!Number.isInteger(ipp) || ipp < 1) errors.itemsPerParticipant = 'A whole number, 1 or more.';
  if (!Number.isInteger(ppi) || ppi < 1) errors.participantsPerItem = 'A whole number, 1 or more.';
  if (!Number.isInteger(seed) || seed < 0) errors.seed = 'A whole number, 0 or more.';
  const keyOf = new Map(draft.dimensions.map((d) => [d.uid, d.key.trim()]));
  draft.checks.forEach((c, i) => {
    if (!c.text.trim()) errors[`attentionChecks.${i}.text`] = 'Write what the participant reads.';
    if (c.dimensionUid === null || !keyOf.has(c.dimensionUid)) errors[`attentionChecks.${i}.dimension`] = 'Choose a scale or yes/no dimension.';
    else if (!c.accept.length) errors[`attentionChecks.${i}.accept`] = 'Tick the answers an attentive participant gives.';
  });
  if (draft.opensAt && draft.closesAt && Date.parse(draft.closesAt) <= Date.parse(draft.opensAt)) errors.closesAt = 'Must be after the opening.';
  if (Object.keys(errors).length) return { errors };
  return {
    body: {
      name, instructions: draft.instructions, consent: draft.consent,
      dimensions: draft.dimensions.map(dimensionBody),
      sources: draft.sources.map((s) => ({
        querySet: s.querySet,
        ...(s.release ? { release: Number(s.release) } : {}),
        ...(s.sample ? { sample: Number(s.sample) } : {}),
      })),
      itemsPerParticipant: ipp, participantsPerItem: ppi, showAnswers: draft.showAnswers, allowEditsAfterFinish: draft.allowEditsAfterFinish, seed,
      attentionChecks: draft.checks.map((c) => ({ text: c.text.trim(), dimension: keyOf.get(c.dimensionUid!)!, accept: [...c.accept].sort((a, b) => a - b) })),
      opensAt: isoOf(draft.opensAt), closesAt: isoOf(draft.closesAt), studyLink: draft.studyLink, open: draft.open,
    },
  };
}

/**
 * The server's refusal by field: the per-field issues of a 400 (`details: [{field, message}]`), a message
 * that starts with a path ("sources.0.release: … has no release 3"), or a 409 about the name.
 */
export function fieldErrorsOf(err: ApiError): FieldErrors {
  const errors: FieldErrors = {};
  const add = (path: string, message: string) => { errors[path] = errors[path] ? `${errors[path]} ${message}` : message; };
  if (Array.isArray(err.details)) {
    for (const d of err.details as { field?: unknown; message?: unknown }[]) {
      if (typeof d.field === 'string' && typeof d.message === 'string') add(d.field, d.message);
    }
  }
  const prefixed = /^([A-Za-z][\w.]*): (.*)$/.exec(err.message);
  if (!Object.keys(errors).length && prefixed) add(prefixed[1]!, prefixed[2]!);
  if (err.status === 409) add('name', err.message);
  return errors;
}
