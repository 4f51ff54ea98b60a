import { describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/errors';
import { captureParams, crowdConfigSchema, crowdOutcome, isWebUrl, linkTemplate, type CrowdState } from '../../../lib/studies/crowd';
import { crowdToken } from '../../../lib/studies/crowd-tokens';

const prolific = crowdConfigSchema.parse({ platform: 'prolific', completed: { code: 'DONE', url: 'https://app.prolific.com/submissions/complete?cc=DONE' } });
const mturk = crowdConfigSchema.parse({ platform: 'mturk', completed: { code: 'DONE' }, screenedOut: { code: 'OUT', url: 'http://example.org/out' } });
const custom = crowdConfigSchema.parse({ platform: 'custom', params: ['src', 'worker'], idParam: 'worker', completed: { code: 'DONE' } });

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return `${(err as AppError).status} ${(err as AppError).message}`;
  }
  return 'accepted';
};
const state = (s: Partial<CrowdState>): CrowdState => ({ outcome: null, timedOut: false, closed: false, full: false, ...s });

describe('crowd settings', () => {
  it('fills in the presets and checks custom parameters', () => {
    expect([prolific.params, prolific.idParam]).toEqual([['PROLIFIC_PID', 'STUDY_ID', 'SESSION_ID'], 'PROLIFIC_PID']);
    expect([mturk.params, mturk.idParam]).toEqual([['workerId', 'assignmentId', 'hitId', 'turkSubmitTo'], 'workerId']);
    expect(crowdConfigSchema.safeParse({ platform: 'custom', params: ['a', 'a'], completed: { code: 'X' } }).error?.issues[0]!.message).toBe('must not repeat a name');
    expect(crowdConfigSchema.safeParse({ platform: 'mturk', idParam: 'hitId', completed: { code: 'X' } }).error?.issues[0]!.message).toBe('must be workerId for mturk');
    expect(crowdConfigSchema.safeParse({ platform: 'custom', params: ['1st'], completed: { code: 'X' } }).error?.issues[0]!.path).toEqual(['params', 0]);
  });

  it('takes only http and https addresses', () => {
    expect(['https://app.prolific.com/submissions/complete?cc=X', 'http://localhost:8080/done'].map(isWebUrl)).toEqual([true, true]);
    expect(['javascript:alert(1)', 'ftp://example.org/', '/relative', 'https://', 'not a url', 'data:text/html,hi'].map(isWebUrl)).toEqual([false, false, false, false, false, false]);
  });

  it('captures the configured parameters, requires the id, and refuses characters a link should not carry', () => {
    expect(captureParams(prolific, { PROLIFIC_PID: '5f0c0ffee', STUDY_ID: 's1', SESSION_ID: 'x', utm: 'dropped' }))
      .toEqual({ externalId: '5f0c0ffee', params: { PROLIFIC_PID: '5f0c0ffee', STUDY_ID: 's1', SESSION_ID: 'x' } });
    expect(captureParams(mturk, { workerId: 'A1B2', assignmentId: 'ASSIGNMENT_ID_NOT_AVAILABLE', turkSubmitTo: 'https://www.mturk.com' }).params.turkSubmitTo).toBe('https://www.mturk.com');
    expect(refusal(() => captureParams(custom, { src: 'x' }))).toBe('400 This link is missing worker: open the study from the recruiting platform so that it is filled in');
    expect(refusal(() => captureParams(prolific, { PROLIFIC_PID: 'a'.repeat(101) }))).toMatch(/^400 PROLIFIC_PID: must be 1 to 100/);
    expect(refusal(() => captureParams(prolific, { PROLIFIC_PID: 'ok', SESSION_ID: '<script>' }))).toMatch(/^400 SESSION_ID: /);
    expect(refusal(() => captureParams(prolific, { PROLIFIC_PID: 'ok', STUDY_ID: 'x'.repeat(501) }))).toMatch(/^400 STUDY_ID: /);
  });

  it('gives the link to paste with each platform\'s placeholders', () => {
    expect(linkTemplate(prolific)).toBe('?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}');
    expect(linkTemplate(mturk)).toBe('');
    expect(linkTemplate(custom)).toBe('?src={src}&worker={worker}');
  });

  it('tells the outcome: recorded first, then time, closing and full; failing attention falls back to the screen-out code', () => {
    expect(crowdOutcome(mturk, state({}))).toBeNull();
    expect(crowdOutcome(mturk, state({ outcome: 'COMPLETED', timedOut: true, closed: true }))).toEqual({ kind: 'completed', reason: 'finished', code: 'DONE', url: null, platform: 'Mechanical Turk' });
    expect(crowdOutcome(mturk, state({ outcome: 'ATTENTION_FAILED' }))).toMatchObject({ kind: 'attention-failed', code: 'OUT', url: 'http://example.org/out' });
    expect(crowdOutcome(mturk, state({ timedOut: true, closed: true }))!.reason).toBe('time-limit');
    expect(crowdOutcome(mturk, state({ closed: true, full: true }))!.reason).toBe('closed');
    expect(crowdOutcome(prolific, state({ full: true }))).toEqual({ kind: 'screened-out', reason: 'full', code: null, url: null, platform: 'Prolific' });
  });

  it('derives the same participant token from the same id, and different ones otherwise', () => {
    expect(crowdToken('key', 'p1')).toBe(crowdToken('key', 'p1'));
    expect(crowdToken('key', 'p1')).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(new Set([crowdToken('key', 'p1'), crowdToken('key', 'p2'), crowdToken('other', 'p1')]).size).toBe(3);
  });
});
