import { z } from 'zod';
import { badRequest } from '../errors';

/**
 * A study link set up for a crowdsourcing platform: which URL parameters the platform sends (one of them the
 * participant's id there), the code and return address for each way a participation ends, a cap on crowd
 * participants, a time limit, and how many tries an attention check allows. Pure: no database here.
 */

export const CROWD_PLATFORMS = ['prolific', 'mturk', 'custom'] as const;
export type CrowdPlatform = (typeof CROWD_PLATFORMS)[number];

/** The platforms' own parameter names; the first is the participant's id there. */
export const PLATFORM_PARAMS: Record<Exclude<CrowdPlatform, 'custom'>, readonly string[]> = {
  prolific: ['PROLIFIC_PID', 'STUDY_ID', 'SESSION_ID'],
  mturk: ['workerId', 'assignmentId', 'hitId', 'turkSubmitTo'],
};

/** Prolific's completion address for a code. */
export const prolificCompletionUrl = (code: string) => `https://app.prolific.com/submissions/complete?cc=${encodeURIComponent(code)}`;

const PARAM_NAME = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;
const paramNameSchema = z.string().regex(PARAM_NAME, 'must start with a letter and hold only letters, digits and _ (at most 40)');

export const CODE = /^[A-Za-z0-9_-]{1,64}$/;
const codeSchema = z.string().trim().regex(CODE, 'must be 1 to 64 letters, digits, - or _');

/** Whether a text is an absolute http:// or https:// address. */
export function isWebUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const urlSchema = z.string().trim().max(2000).refine(isWebUrl, 'must be an http:// or https:// address');

const outcomeSchema = z.object({
  code: codeSchema,
  /** Where the participant is sent with the code; without one, the page shows the code to copy. */
  url: urlSchema.nullable().default(null),
}).strict();
export type OutcomeSetting = z.infer<typeof outcomeSchema>;

export const crowdConfigSchema = z.object({
  platform: z.enum(CROWD_PLATFORMS),
  /** The parameters to capture: the platform's own for a preset (may be left out), else names of your own. */
  params: z.array(paramNameSchema).min(1).max(10).optional(),
  /** The parameter that holds the participant's id (a preset's first parameter when left out). */
  idParam: paramNameSchema.optional(),
  completed: outcomeSchema,
  /** Screened out: after the cap, after closing, out of time or of items. Without it, no code is given. */
  screenedOut: outcomeSchema.nullable().default(null),
  /** Failed attention checks; the screen-out outcome when left out. */
  attentionFailed: outcomeSchema.nullable().default(null),
  /** At most this many crowd participants through the link; those already in always come back. */
  cap: z.number().int().min(1).max(1_000_000).nullable().default(null),
  /** Minutes a participant has from their first visit; null for no limit. */
  timeLimitMinutes: z.number().int().min(1).max(10_080).nullable().default(null),
  /** Tries at each attention check: 2 lets a participant answer again after a wrong answer. */
  attentionAttempts: z.number().int().min(1).max(2).default(1),
}).strict().transform((c, ctx) => {
  const preset = c.platform === 'custom' ? null : PLATFORM_PARAMS[c.platform];
  if (preset && c.params && c.params.join() !== preset.join()) {
    ctx.addIssue({ code: 'custom', path: ['params'], message: `must be left out or be ${c.platform}'s own: ${preset.join(', ')}` });
  }
  const params = c.params ?? (preset ? [...preset] : []);
  if (!params.length) ctx.addIssue({ code: 'custom', path: ['params'], message: 'is required for custom parameters' });
  if (new Set(params).size !== params.length) ctx.addIssue({ code: 'custom', path: ['params'], message: 'must not repeat a name' });
  const idParam = c.idParam ?? params[0] ?? '';
  if (preset && idParam !== preset[0]) ctx.addIssue({ code: 'custom', path: ['idParam'], message: `must be ${preset[0]} for ${c.platform}` });
  if (!params.includes(idParam)) ctx.addIssue({ code: 'custom', path: ['idParam'], message: 'must be one of params' });
  return { ...c, params, idParam };
});
export type CrowdConfig = z.output<typeof crowdConfigSchema>;
export type CrowdConfigInput = z.input<typeof crowdConfigSchema>;

/** A participant's id on the platform: Prolific and MTurk ids are letters and digits. */
const EXTERNAL_ID = /^[A-Za-z0-9_.-]{1,100}$/;
/** Other parameters (session and study ids, MTurk's turkSubmitTo address): URL-safe characters only. */
const PARAM_VALUE = /^[A-Za-z0-9._~:/?#@!$&()*+,;=%-]{0,500}$/;

/** What the join page sends: the query string of the link as opened (the server keeps the configured names). */
export const crowdParamsSchema = z.record(z.string().max(100), z.string().max(2000))
  .refine((r) => Object.keys(r).length <= 30, 'must have at most 30 parameters');

export interface Captured {
  externalId: string;
  params: Record<string, string>;
}

/** The configured parameters of a visit, checked; the id parameter is required. 400 naming the parameter otherwise. */
export function captureParams(config: CrowdConfig, sent: Record<string, string>): Captured {
  const id = sent[config.idParam];
  if (id === undefined || id === '') {
    throw badRequest(`This link is missing ${config.idParam}: open the study from ${platformName(config.platform)} so that it is filled in`);
  }
  if (!EXTERNAL_ID.test(id)) throw badRequest(`${config.idParam}: must be 1 to 100 letters, digits, ., - or _`);
  const params: Record<string, string> = {};
  for (const name of config.params) {
    const value = sent[name];
    if (value === undefined) continue;
    if (!PARAM_VALUE.test(value)) throw badRequest(`${name}: must be at most 500 characters that may stand in a web address`);
    params[name] = value;
  }
  return { externalId: id, params };
}

export const platformName = (p: CrowdPlatform) => (p === 'prolific' ? 'Prolific' : p === 'mturk' ? 'Mechanical Turk' : 'the recruiting platform');

/**
 * The query string to add to the study link in the platform's settings, with its placeholders: Prolific's
 * `{{%NAME%}}`; none for MTurk, which adds its parameters itself; `{NAME}` to replace for custom ones.
 */
export function linkTemplate(config: Pick<CrowdConfig, 'platform' | 'params'>): string {
  if (config.platform === 'mturk') return '';
  const slot = config.platform === 'prolific' ? (n: string) => `{{%${n}%}}` : (n: string) => `{${n}}`;
  return `?${config.params.map((n) => `${n}=${slot(n)}`).join('&')}`;
}

/** A crowd participation's end: how, why, and the code and address it carries (null when none is set). */
export interface CrowdOutcome {
  kind: 'completed' | 'screened-out' | 'attention-failed';
  reason: 'finished' | 'attention' | 'time-limit' | 'closed' | 'cap' | 'full';
  code: string | null;
  url: string | null;
  /** The platform's name, to say where the participant goes back to. */
  platform: string;
}

export function outcomeOf(config: CrowdConfig, kind: CrowdOutcome['kind'], reason: CrowdOutcome['reason']): CrowdOutcome {
  const setting = kind === 'completed' ? config.completed : kind === 'attention-failed' ? config.attentionFailed ?? config.screenedOut : config.screenedOut;
  return { kind, reason, code: setting?.code ?? null, url: setting?.url ?? null, platform: platformName(config.platform) };
}

/** What the database records of a crowd participation, to tell its outcome from. */
export interface CrowdState {
  outcome: 'COMPLETED' | 'SCREENED_OUT' | 'ATTENTION_FAILED' | null;
  /** Past the time limit now. */
  timedOut: boolean;
  /** The study has closed for good. */
  closed: boolean;
  /** Started and given no items: every place was taken. */
  full: boolean;
}

/**
 * The outcome of a crowd participation, or null while it goes on: the one recorded (completed, failed
 * attention), else screened out once the time is up, the study has closed, or it found no items left.
 */
export function crowdOutcome(config: CrowdConfig, s: CrowdState): CrowdOutcome | null {
  if (s.outcome === 'COMPLETED') return outcomeOf(config, 'completed', 'finished');
  if (s.outcome === 'ATTENTION_FAILED') return outcomeOf(config, 'attention-failed', 'attention');
  if (s.timedOut) return outcomeOf(config, 'screened-out', 'time-limit');
  if (s.closed) return outcomeOf(config, 'screened-out', 'closed');
  if (s.full) return outcomeOf(config, 'screened-out', 'full');
  return null;
}
