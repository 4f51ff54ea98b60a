/** Reciprocal-rank fusion's constant: an entity at rank r of a ranking earns 1 / (RRF_K + r). */
export const RRF_K = 60;

export interface FusedEntity {
  id: string;
  entityId: number;
  score: number;
}

/**
 * Reciprocal-rank fusion (Cormack et al. 2009): each entity's score is the sum over the rankings it appears in
 * of 1 / (k + rank), ranks counted from 1; the top `depth` come back, equal scores by the lower entity id.
 */
export function fuseRankings(rankings: { id: string; entityId: number }[][], depth: number, k = RRF_K): FusedEntity[] {
  const fused = new Map<string, FusedEntity>();
  for (const ranking of rankings) {
    ranking.forEach((e, i) => {
      const entry = fused.get(e.id) ?? { id: e.id, entityId: e.entityId, score: 0 };
      entry.score += 1 / (k + i + 1);
      fused.set(e.id, entry);
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score || a.entityId - b.entityId).slice(0, depth);
}
