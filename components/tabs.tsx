'use client';

import { useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabItem<T extends string> {
  id: T;
  label: string;
}

interface Props<T extends string> {
  tabs: readonly TabItem<T>[];
  selected: T;
  onSelect: (id: T) => void;
  /** Names the tab list for screen readers. */
  label: string;
  /** Prefix of the tabs' and panel's element ids, unique on the page. */
  idPrefix: string;
  /** The selected tab's panel. */
  children: ReactNode;
  className?: string;
}

const KEYS: Record<string, (index: number, last: number) => number> = {
  ArrowRight: (i, last) => (i === last ? 0 : i + 1),
  ArrowLeft: (i, last) => (i === 0 ? last : i - 1),
  Home: () => 0,
  End: (_i, last) => last,
};

/**
 * Tabs as WAI-ARIA describes them: one tab stop for the list (the selected tab; the others have tabindex -1),
 * Left and Right move to the neighbour (wrapping), Home and End to the ends, and moving selects.
 */
export function Tabs<T extends string>({ tabs, selected, onSelect, label, idPrefix, children, className }: Props<T>) {
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);

  function onKeyDown(event: KeyboardEvent, index: number) {
    const move = KEYS[event.key];
    if (!move) return;
    event.preventDefault();
    const next = move(index, tabs.length - 1);
    onSelect(tabs[next]!.id);
    buttons.current[next]?.focus();
  }

  return (
    <div className={className}>
      <div role="tablist" aria-label={label} className="flex flex-wrap gap-1 border-b border-slate-200 text-sm">
        {tabs.map((t, i) => {
          const isSelected = t.id === selected;
          return (
            <button key={t.id} ref={(el) => { buttons.current[i] = el; }} type="button" role="tab" id={`${idPrefix}-tab-${t.id}`}
              aria-selected={isSelected} aria-controls={`${idPrefix}-panel-${t.id}`} tabIndex={isSelected ? 0 : -1}
              onClick={() => onSelect(t.id)} onKeyDown={(e) => onKeyDown(e, i)}
              className={`-mb-px border-b-2 px-3 py-2 ${isSelected ? 'border-blue-600 font-medium text-slate-900' : 'border-transparent text-slate-600 hover:text-slate-900'}`}>
              {t.label}
            </button>
          );
        })}
      </div>
      {/* The panel takes the focus (WAI-ARIA's advice when it may hold no focusable content), Tab from the list lands here. */}
      <div role="tabpanel" id={`${idPrefix}-panel-${selected}`} aria-labelledby={`${idPrefix}-tab-${selected}`} tabIndex={0} className="pt-3">
        {children}
      </div>
    </div>
  );
}
