import type pg from 'pg';
import { countHubNeighbours, countHubRelations, replaceHubCounts, replaceHubNeighbours, type HubCount, type HubNeighbours } from '../kb/hub-counts';
import { findSymmetricRelations, markSymmetricRelations, symmetryCandidates, type TripleCount } from '../kb/relation-symmetry';
import type { TableNames } from './partitions';

type Queryable = Pick<pg.Pool, 'query'>;

/** What an import derives from its loaded, indexed edges for the explorer, before publishing. */
export interface DerivedCounts {
  hubRelations: HubCount[];
  hubNeighbours: HubNeighbours[];
  /** Relation ids whose every edge has its reverse. */
  symmetric: number[];
}

export async function deriveCounts(db: Queryable, staging: TableNames, kbId: number, hubDegree: number, triples: readonly TripleCount[]): Promise<DerivedCounts> {
  const hubRelations = await countHubRelations(db, staging, kbId, hubDegree);
  const hubNeighbours = await countHubNeighbours(db, staging, kbId, hubDegree);
  const symmetric = await findSymmetricRelations(db, staging.edge, kbId, symmetryCandidates(triples));
  return { hubRelations, hubNeighbours, symmetric };
}

/** Writes the derived counts; run inside the transaction that publishes the edges they describe. */
export async function publishDerivedCounts(db: Queryable, kbId: number, derived: DerivedCounts): Promise<void> {
  await replaceHubCounts(db, kbId, derived.hubRelations);
  await replaceHubNeighbours(db, kbId, derived.hubNeighbours);
  await markSymmetricRelations(db, kbId, derived.symmetric);
}
