'use client';

import Link from 'next/link';
import { useState } from 'react';
import type { Workspace } from '@/lib/authoring/workspace';
import { CountTable } from '@/components/count-table';
import { EntityGraph } from '@/components/entity-graph';
import { NeighbourList } from '@/components/neighbour-list';
import { Tabs } from '@/components/tabs';
import { entityPage } from '../api';
import type { MarkedPassage } from './markable-document';
import { SeedDocument } from './seed-document';
import { useEntity } from './use-entity';

const TABS = [
  { id: 'relations', label: 'Relations' },
  { id: 'neighbours', label: 'Neighbours' },
  { id: 'graph', label: 'Graph' },
] as const;
type Tab = (typeof TABS)[number]['id'];

interface Props {
  kbSlug: string;
  seed: Workspace['seed'];
  spans: MarkedPassage[];
  onSpans: (spans: MarkedPassage[]) => void;
  readOnly: boolean;
}

/** The seed: who it is, its document with the textual requirements, and its relations in tabs. */
export function SeedPanel({ kbSlug, seed, spans, onSpans, readOnly }: Props) {
  const { data: entity, error } = useEntity(kbSlug, seed.id);
  const [tab, setTab] = useState<Tab>('relations');

  return (
    <section className="space-y-4 rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="seed-heading">
      <div>
        <p className="text-xs uppercase tracking-wide text-slate-500">Seed</p>
        <h2 id="seed-heading" className="text-lg font-semibold" data-testid="seed-name">
          <Link href={entityPage(kbSlug, seed.id)} className="hover:underline" target="_blank">{seed.name}</Link>
        </h2>
        <p className="text-sm text-slate-500">
          {seed.type} · external id <code>{seed.externalId}</code>
          {seed.aliases.length > 0 && <> · also known as {seed.aliases.join(', ')}</>}
        </p>
      </div>
      {error && <p role="alert" className="text-sm text-red-700">Could not load the seed: {error.message}</p>}
      {entity ? <SeedDocument document={entity.document} spans={spans} onChange={onSpans} readOnly={readOnly} /> : !error && <p className="text-sm text-slate-500">Loading the document…</p>}
      <Tabs tabs={TABS} selected={tab} onSelect={setTab} label="The seed’s relations" idPrefix="seed">
        {!entity ? null : tab === 'relations' ? (
          entity.relations.length === 0
            ? <p className="text-sm text-slate-500">The seed has no edges.</p>
            : <CountTable testId="seed-relations"
                rows={entity.relations.map((r) => ({ key: `${r.relation}-${r.direction}`, label: r.direction === 'out' ? `${r.relation} →` : `← ${r.relation}`, count: r.count }))} />
        ) : tab === 'neighbours' ? (
          <NeighbourList kbSlug={kbSlug} entityId={seed.id} relations={entity.relations} />
        ) : (
          <EntityGraph kbSlug={kbSlug} entityId={seed.id} newTab />
        )}
      </Tabs>
    </section>
  );
}
