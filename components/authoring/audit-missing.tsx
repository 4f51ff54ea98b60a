'use client';

import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { WorkspaceJudgment } from '@/lib/authoring/workspace';
import { fetchJson } from '@/lib/client/fetch-json';
import type { Metapath, MetapathSchema } from '@/lib/kb/metapath';
import type { QueryEntity } from '@/lib/queries/edit';
import { MetapathBranch, type BranchState } from '@/components/metapath-branch';
import { CandidateList } from './workspace/candidate-list';
import { HandAdded } from './workspace/hand-added';
import type { JudgedEntity } from './workspace/types';
import type { Judgments } from './workspace/use-judgments';

interface Props {
  kbSlug: string;
  assignmentId: number;
  queryText: string;
  /** The query's seeds: the metapath starts at the first one that is an entity. */
  seeds: QueryEntity[];
  /** Judgments of entities that are not current answers. */
  others: WorkspaceJudgment[];
  judgments: Judgments;
  readOnly: boolean;
  citing: number | null;
  onCite: (entity: JudgedEntity) => void;
  evidence: (entity: JudgedEntity) => ReactNode;
}

/**
 * Where an annotator finds the answers the query is missing: a metapath from the query's seed (or from any
 * entity or type when it has none) lists the exact candidates to judge, and entities can be added by name.
 */
export function AuditMissing({ kbSlug, assignmentId, queryText, seeds, others, judgments, readOnly, citing, onCite, evidence }: Props) {
  const seed = seeds.find((s) => s.entityId !== null);
  const [branch, setBranch] = useState<BranchState>({ start: seed ? { entity: seed.entityId! } : null, steps: [] });
  const { data: schema, error } = useQuery({
    queryKey: ['metapath-schema', kbSlug],
    queryFn: () => fetchJson<MetapathSchema>(`/api/kbs/${encodeURIComponent(kbSlug)}/metapaths/schema`),
    enabled: !readOnly,
  });
  const paths: Metapath[] | null = branch.start && branch.steps.length ? [branch as Metapath] : null;
  return (
    <div className="space-y-4">
      {!readOnly && error && <p role="alert" className="text-sm text-red-700">Could not load the schema: {error.message}</p>}
      {!readOnly && schema && (
        <MetapathBranch kbSlug={kbSlug} schema={schema} label={seed ? `Path from the seed, ${seed.name}` : 'Path to the answers'} branch={branch}
          testId="audit-branch" onChange={setBranch} />
      )}
      {paths ? (
        <CandidateList key={JSON.stringify(paths)} kbSlug={kbSlug} assignmentId={assignmentId} paths={paths} queryText={queryText} judgments={judgments}
          readOnly={readOnly} citing={citing} onCite={onCite} evidence={evidence} />
      ) : (
        <p className="text-sm text-slate-500">{readOnly ? 'No path was built.' : 'Add a step to list the entities the path reaches, and judge them.'}</p>
      )}
      <div>
        <h3 className="mb-2 text-sm font-medium">Added by hand</h3>
        <HandAdded kbSlug={kbSlug} assignmentId={assignmentId} paths={paths} saved={others} judgments={judgments} readOnly={readOnly}
          citing={citing} onCite={onCite} evidence={evidence} />
      </div>
    </div>
  );
}
