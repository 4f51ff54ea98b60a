'use client';

import { Tabs } from '@/components/tabs';
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

  // Each view's own parameters are dropped on a switch: they mean nothing to the next view. The URL is read at
  // the key press, not from this render: a second key can come before React has drawn the first one's tab.
  const select = (tab: Tab) => {
    const shown = new URLSearchParams(window.location.search).get('tab') ?? 'queries';
    if (tab !== shown) window.history.pushState(null, '', `${window.location.pathname}${tab === 'queries' ? '' : `?tab=${tab}`}`);
  };

  return (
    <Tabs tabs={TABS} selected={current} onSelect={select} label="Query set views" idPrefix="set">
      {current === 'queries' && <QueryTable {...props} params={params} setParams={setParams} />}
      {current === 'stats' && <QueryStats {...props} params={params} setParams={setParams} />}
      {current === 'releases' && <ReleasePanel {...props} params={params} setParams={setParams} />}
      {current === 'runs' && <RunPanel {...props} params={params} setParams={setParams} />}
    </Tabs>
  );
}
