'use client';

import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { linkTemplate, PLATFORM_PARAMS, platformName, prolificCompletionUrl, type CrowdConfig, type CrowdConfigInput, type CrowdPlatform } from '@/lib/studies/crowd';
import { requestJson } from '../queries/api';
import { crowdApi } from './api';

const INPUT = 'w-full rounded border border-slate-300 px-2 py-1';
const BUTTON = 'rounded border border-slate-300 px-3 py-1.5 hover:bg-slate-50 disabled:opacity-60';

type OutcomeKey = 'completed' | 'screenedOut' | 'attentionFailed';
const OUTCOMES: { key: OutcomeKey; label: string; help: string }[] = [
  { key: 'completed', label: 'Completed', help: 'Given when a participant finishes.' },
  { key: 'screenedOut', label: 'Screened out', help: 'After the cap, after closing, out of time or of items. Optional.' },
  { key: 'attentionFailed', label: 'Failed attention', help: 'After the last try at an attention check. Optional: the screen-out one otherwise.' },
];

interface Draft {
  platform: CrowdPlatform | 'none';
  params: string;
  idParam: string;
  codes: Record<OutcomeKey, { code: string; url: string }>;
  cap: string;
  timeLimit: string;
  secondAttempt: boolean;
}

function draftOf(c: CrowdConfig | null): Draft {
  const outcome = (o: CrowdConfig['screenedOut']) => ({ code: o?.code ?? '', url: o?.url ?? '' });
  return {
    platform: c?.platform ?? 'none',
    params: c?.platform === 'custom' ? c.params.join(', ') : '',
    idParam: c?.platform === 'custom' ? c.idParam : '',
    codes: { completed: outcome(c?.completed ?? null), screenedOut: outcome(c?.screenedOut ?? null), attentionFailed: outcome(c?.attentionFailed ?? null) },
    cap: c?.cap ? String(c.cap) : '',
    timeLimit: c?.timeLimitMinutes ? String(c.timeLimitMinutes) : '',
    secondAttempt: (c?.attentionAttempts ?? 1) > 1,
  };
}

/** The settings the server checks (and names the field of what is wrong); an empty Prolific address is Prolific's own. */
function configOf(d: Draft): CrowdConfigInput | null {
  if (d.platform === 'none') return null;
  const outcome = (k: OutcomeKey) => {
    const { code, url } = d.codes[k];
    if (k !== 'completed' && code.trim() === '' && url.trim() === '') return null;
    const address = url.trim() || (d.platform === 'prolific' && code.trim() ? prolificCompletionUrl(code.trim()) : null);
    return { code, url: address };
  };
  const number = (s: string) => (s.trim() === '' ? null : Number(s));
  return {
    platform: d.platform,
    ...(d.platform === 'custom' ? { params: d.params.split(',').map((p) => p.trim()).filter(Boolean), idParam: d.idParam.trim() || undefined } : {}),
    completed: outcome('completed')!,
    screenedOut: outcome('screenedOut'),
    attentionFailed: outcome('attentionFailed'),
    cap: number(d.cap),
    timeLimitMinutes: number(d.timeLimit),
    attentionAttempts: d.secondAttempt ? 2 : 1,
  };
}

/**
 * Sets the study link up for a recruiting platform: the parameters it sends, the codes and return addresses,
 * the cap and time limit, and a second try at attention checks; shows what to add to the link on the platform.
 */
export function CrowdPanel({ studyId, crowd, onSaved }: { studyId: number; crowd: CrowdConfig | null; onSaved: () => void }) {
  const id = useId();
  const [draft, setDraft] = useState(() => draftOf(crowd));
  const save = useMutation({
    mutationFn: () => requestJson<{ crowd: CrowdConfig | null }>(crowdApi(studyId), { method: 'PUT', json: { crowd: configOf(draft) } }),
    onSuccess: onSaved,
  });
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const setCode = (k: OutcomeKey, patch: Partial<Draft['codes'][OutcomeKey]>) => set({ codes: { ...draft.codes, [k]: { ...draft.codes[k], ...patch } } });
  const platform = draft.platform;
  return (
    <form className="space-y-4 text-sm" data-testid="crowd-panel" onSubmit={(e) => { e.preventDefault(); save.mutate(); }}>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-platform`}>Recruiting platform</label>
        <select id={`${id}-platform`} value={platform} onChange={(e) => set({ platform: e.target.value as Draft['platform'] })} className="w-full max-w-xs rounded border border-slate-300 px-2 py-1">
          <option value="none">None: a plain study link</option>
          <option value="prolific">Prolific</option>
          <option value="mturk">Mechanical Turk</option>
          <option value="custom">Other (parameters of your own)</option>
        </select>
      </div>
      {platform === 'custom' && (
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-params`}>Parameters to capture</label>
            <input id={`${id}-params`} value={draft.params} onChange={(e) => set({ params: e.target.value })} placeholder="worker, session" className={INPUT} />
            <span className="text-xs text-slate-500">Names separated by commas.</span>
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-id-param`}>Participant id parameter</label>
            <input id={`${id}-id-param`} value={draft.idParam} onChange={(e) => set({ idParam: e.target.value })} placeholder="the first one" className={INPUT} />
          </div>
        </div>
      )}
      {platform !== 'none' && (
        <>
          {platform !== 'custom' && (
            <p className="text-slate-600">Captured from the link: {PLATFORM_PARAMS[platform].join(', ')} (the participant is known by {PLATFORM_PARAMS[platform][0]}).</p>
          )}
          <fieldset className="space-y-3">
            <legend className="font-medium">Codes and return addresses</legend>
            {OUTCOMES.map((o) => (
              <div key={o.key} className="grid gap-2 sm:grid-cols-[10rem_1fr]">
                <div className="flex flex-col gap-1">
                  <label htmlFor={`${id}-${o.key}-code`}>{o.label} code</label>
                  <input id={`${id}-${o.key}-code`} value={draft.codes[o.key].code} onChange={(e) => setCode(o.key, { code: e.target.value })} className={`${INPUT} font-mono`} />
                </div>
                <div className="flex flex-col gap-1">
                  <label htmlFor={`${id}-${o.key}-url`}>{o.label} address</label>
                  <input id={`${id}-${o.key}-url`} type="url" value={draft.codes[o.key].url} onChange={(e) => setCode(o.key, { url: e.target.value })}
                    placeholder={platform === 'prolific' ? 'Prolific’s address for the code' : 'https://… (optional)'} className={INPUT} />
                  <span className="text-xs text-slate-500">{o.help}</span>
                </div>
              </div>
            ))}
          </fieldset>
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="flex flex-col gap-1">
              <label htmlFor={`${id}-cap`}>Participant cap</label>
              <input id={`${id}-cap`} type="number" min={1} value={draft.cap} onChange={(e) => set({ cap: e.target.value })} placeholder="no cap" className={INPUT} />
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor={`${id}-time`}>Time limit (minutes)</label>
              <input id={`${id}-time`} type="number" min={1} value={draft.timeLimit} onChange={(e) => set({ timeLimit: e.target.value })} placeholder="no limit" className={INPUT} />
            </div>
          </div>
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={draft.secondAttempt} onChange={(e) => set({ secondAttempt: e.target.checked })} />
            Allow a second try at each attention check
          </label>
        </>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className={BUTTON} disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save platform settings'}</button>
        {save.isSuccess && !save.isPending && <span role="status" className="text-green-800">Saved.</span>}
      </div>
      {save.error && <p role="alert" className="text-red-700">{save.error.message}</p>}
      {crowd && <LinkToPaste crowd={crowd} />}
    </form>
  );
}

/** What the curator adds to the study link in the platform's settings. */
function LinkToPaste({ crowd }: { crowd: CrowdConfig }) {
  const suffix = linkTemplate(crowd);
  return (
    <div className="space-y-1 rounded border border-slate-200 bg-slate-50 p-3" data-testid="crowd-link">
      <p className="font-medium">On {platformName(crowd.platform)}</p>
      {suffix ? (
        <>
          <p>Give the study link followed by:</p>
          <p className="break-all font-mono text-xs">{suffix}</p>
        </>
      ) : (
        <p>Give the study link as it is: {platformName(crowd.platform)} adds {crowd.params.join(', ')} itself.</p>
      )}
      <p className="text-xs text-slate-500">A new study link is shown with this already added.</p>
    </div>
  );
}
