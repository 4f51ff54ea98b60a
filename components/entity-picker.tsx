'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { plural } from '@/lib/format/plural';
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import type { AutocompleteItem } from '@/lib/kb/autocomplete';
import { fetchJson } from '@/lib/client/fetch-json';

export interface PickedEntity {
  id: number;
  name: string;
  type: string;
}

interface EntityPickerProps {
  kbSlug: string;
  label: string;
  onSelect: (e: PickedEntity) => void;
  placeholder?: string;
  testId?: string;
}

const DEBOUNCE_MS = 150;

/**
 * A combobox that finds an entity by name (typo-tolerant), internal id (`#123` or `123`) or external id.
 * Arrow keys move through the options, Enter picks, Escape closes.
 */
export function EntityPicker({ kbSlug, label, onSelect, placeholder, testId }: EntityPickerProps) {
  const baseId = useId();
  const listId = `${baseId}-list`;
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);

  useEffect(() => {
    const timer = setTimeout(() => setQuery(text.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const { data, error, isFetching } = useQuery({
    queryKey: ['autocomplete', kbSlug, query],
    queryFn: () =>
      fetchJson<{ items: AutocompleteItem[] }>(`/api/kbs/${encodeURIComponent(kbSlug)}/autocomplete?${new URLSearchParams({ q: query, limit: '10' })}`),
    enabled: query.length > 0,
    placeholderData: keepPreviousData,
  });
  const items = query && data ? data.items : [];
  const expanded = open && query.length > 0;

  function pick(item: AutocompleteItem) {
    setOpen(false);
    setText(item.name);
    onSelect({ id: item.id, name: item.name, type: item.type });
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (items.length > 0) setActive((i) => (i + (event.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length);
    } else if (event.key === 'Enter' && expanded && items[active]) {
      event.preventDefault();
      pick(items[active]);
    } else if (event.key === 'Escape') {
      setOpen(false);
    }
  }

  return (
    <div className="relative" data-testid={testId}>
      <label htmlFor={`${baseId}-input`} className="mb-1 block text-sm font-medium text-slate-700">{label}</label>
      <input
        id={`${baseId}-input`}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && items[active] ? `${baseId}-opt-${active}` : undefined}
        autoComplete="off"
        value={text}
        placeholder={placeholder ?? 'Name, #id or external id'}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(0);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        className="w-full rounded border border-slate-300 px-2 py-1.5 text-sm"
      />
      {expanded && (
        <ul id={listId} role="listbox" aria-label={label} aria-busy={isFetching} className="absolute z-20 mt-1 max-h-80 w-full overflow-auto rounded border border-slate-200 bg-white text-sm shadow-lg">
          {error && <li className="px-2 py-1.5 text-red-700" role="alert">{error.message}</li>}
          {!error && items.length === 0 && <li className="px-2 py-1.5 text-slate-500">{isFetching ? 'Searching…' : 'No matching entity'}</li>}
          {items.map((item, i) => (
            <li
              key={item.id}
              id={`${baseId}-opt-${i}`}
              role="option"
              aria-selected={i === active}
              // mousedown, not click: it fires before the input's blur closes the list.
              onMouseDown={(e) => {
                e.preventDefault();
                pick(item);
              }}
              onMouseEnter={() => setActive(i)}
              className={`cursor-pointer px-2 py-1.5 ${i === active ? 'bg-blue-50' : ''}`}
            >
              <span className="font-medium">{item.name}</span>{' '}
              <span className="text-xs text-slate-500">{item.type} · #{item.id} · {item.externalId} · {plural(item.degree, 'edge')}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
