'use client';

import { useRef, type KeyboardEvent } from 'react';
import { QueryTable } from './query-table';
import { QueryStats } from './query-stats';
import { ReleasePanel } from './release-panel';
import { RunPanel } from './run-panel';
import { useUrlParams } from './use-url-params';

const TABS = [
  { id: 'queries', label: 'Queries' },
  { id: 'stats', label: 'Statistics' },
  { id: 'releases', label: 'Releases' },
  { id: 'runs', label: 'Runs' },
] as const;
type Tab = (typeof TABS)[number]['id'];

export interface QuerySetTabsProps {
  slug: string;
  name: string;
  /** The split names in use, for the filters. */
  splits: string[];
  /** May import, edit, release and start the baseline (permission queries:manage). */
  canManage: boolean;
}

/**
 * The set page's four views as tabs (WAI-ARIA tabs: arrow keys, Home and End move between them). The tab and
 * each view's filters are in the URL (`?tab=stats`), so every view can be linked to and survives a reload.
 */
export function QuerySetTabs(props: QuerySetTabsProps) {
  const [params, setParams] = useUrlParams();
  const current: Tab = TABS.find((t) => t.id === params.get('tab'))?.id ?? 'queries';
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);

  // Each view's own parameters are dropped on a switch: they mean nothing to the next view.
  const select = (tab: Tab) => {
    if (tab !== current) window.history.pushState(null, '', `${window.location.pathname}${tab === 'queries' ? '' : `?tab=${tab}`}`);
  };

  function onKeyDown(event: KeyboardEvent, index: number) {
    const last = TABS.length - 1;
    const next = { ArrowRight: index === last ? 0 : index + 1, ArrowLeft: index === 0 ? last : index - 1, Home: 0, End: last }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    select(TABS[next]!.id);
    buttons.current[next]?.focus();
  }

  return (
    <div className="space-y-4">
      <div role="tablist" aria-label="Query set views" className="flex gap-1 border-b border-slate-200 text-sm">
        {TABS.map((t, i) => {
          const selected = t.id === current;
          return (
            <button key={t.id} ref={(el) => { buttons.current[i] = el; }} type="button" role="tab" id={`tab-${t.id}`}
              aria-selected={selected} aria-controls={`panel-${t.id}`} tabIndex={selected ? 0 : -1}
              onClick={() => select(t.id)} onKeyDown={(e) => onKeyDown(e, i)}
              className={`-mb-px border-b-2 px-3 py-2 ${selected ? 'border-blue-600 font-medium text-slate-900' : 'border-transparent text-slate-600 hover:text-slate-900'}`}>
              {t.label}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={`panel-${current}`} aria-labelledby={`tab-${current}`} tabIndex={0} className="focus:outline-none">
        {current === 'queries' && <QueryTable {...props} params={params} setParams={setParams} />}
        {current === 'stats' && <QueryStats {...props} params={params} setParams={setParams} />}
        {current === 'releases' && <ReleasePanel {...props} params={params} setParams={setParams} />}
        {current === 'runs' && <RunPanel {...props} params={params} setParams={setParams} />}
      </div>
    </div>
  );
}
