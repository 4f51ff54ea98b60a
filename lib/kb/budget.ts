/**
 * Shares `budget` slots between groups of the given sizes, max-min fairly: small groups are shown whole,
 * what they leave is split evenly among the larger ones, and the total never exceeds the budget. When
 * there are more groups than slots, the first groups get one each and the rest none.
 */
export function allocateBudget(sizes: number[], budget: number): number[] {
  const shares = sizes.map(() => 0);
  let left = Math.max(0, Math.floor(budget));
  let open = sizes.map((_, i) => i).filter((i) => sizes[i]! > 0);
  while (left > 0 && open.length > 0) {
    const each = Math.floor(left / open.length);
    if (each === 0) {
      for (const i of open.slice(0, left)) shares[i]! += 1;
      break;
    }
    for (const i of open) {
      const give = Math.min(each, sizes[i]! - shares[i]!);
      shares[i]! += give;
      left -= give;
    }
    open = open.filter((i) => shares[i]! < sizes[i]!);
  }
  return shares;
}

/**
 * The element cost model of a neighbourhood view: a shown neighbour costs at most 2 (its node and its edge),
 * and a relation group that is cut costs 2 for its "+N more" stub (drawn as a node and an edge).
 */
export const ELEMENTS_PER_NEIGHBOUR = 2;
export const ELEMENTS_PER_STUB = 2;

/**
 * How much of what is left a breadth-first level may spend: the last level takes all of it, an earlier one
 * an even share of the levels still to come, so a hub at the centre does not leave nothing for the next hop.
 * What a level does not spend passes on to the next.
 */
export function levelAllowance(remaining: number, level: number, hops: number): number {
  const left = Math.max(0, Math.floor(remaining));
  return level >= hops ? left : Math.floor(left / (hops - level + 1));
}

export interface LevelPlan {
  /** Per frontier node: whether it is expanded at all. */
  expanded: boolean[];
  /** Per frontier node and group: how many not yet shown neighbours to show (0 for nodes not expanded). */
  shares: number[][];
  /** The most elements the plan can add, under the cost model above. */
  cost: number;
}

/** An expanded node shows at least this many new neighbours when it has them: a node whose relations are all stubs tells little. */
export const MIN_NEW_NEIGHBOURS = 2;

/**
 * Plans one breadth-first level. `groups[i]` holds, for frontier node i, the number of not yet shown
 * neighbours in each of its relation groups (all positive). Every group of an expanded node shows at least
 * one neighbour or a stub (2 per group), and the node at least MIN_NEW_NEIGHBOURS neighbours if it has them.
 * The first `mustExpand` nodes are expanded whatever that costs (the caller has already paid their stubs),
 * the others cheapest first while they fit (ties keep the given order); nodes left out stay unexpanded rather
 * than become a cluster of stubs. The rest of the allowance is shared max-min fairly between the expanded
 * nodes, then within each node between its groups; a group that is shown whole needs no stub.
 */
export function planLevel(groups: number[][], allowance: number, mustExpand = 0): LevelPlan {
  const budget = Math.max(0, Math.floor(allowance));
  const demand = groups.map((g) => g.reduce((s, r) => s + r - 1, 0));
  const rest = [...groups.keys()].slice(mustExpand).sort((a, b) => groups[a]!.length - groups[b]!.length || a - b);
  const order = [...groups.keys()].slice(0, mustExpand).concat(rest);
  const expanded = groups.map(() => false);
  let left = budget;
  let stubBase = 0;
  for (const i of order) {
    const base = ELEMENTS_PER_STUB * groups[i]!.length;
    const wanted = base + ELEMENTS_PER_NEIGHBOUR * Math.min(MIN_NEW_NEIGHBOURS, demand[i]!);
    if (wanted > left && i >= mustExpand) break;
    expanded[i] = true;
    left = Math.max(0, left - wanted);
    stubBase += base;
  }
  // Beyond the base, each further neighbour of a group costs ELEMENTS_PER_NEIGHBOUR; a group of r can take r - 1
  // more. Max-min fairness gives every admitted node its MIN_NEW_NEIGHBOURS, since admission reserved them.
  const extra = Math.floor(Math.max(0, budget - stubBase) / ELEMENTS_PER_NEIGHBOUR);
  const nodeShares = allocateBudget(demand.map((d, i) => (expanded[i] ? d : 0)), extra);
  const shares = groups.map((g, i) => {
    if (!expanded[i]) return g.map(() => 0);
    const more = allocateBudget(g.map((r) => r - 1), nodeShares[i]!);
    return g.map((r, j) => (more[j] === r - 1 ? r : more[j]!));
  });
  const cost = stubBase + ELEMENTS_PER_NEIGHBOUR * nodeShares.reduce((s, x) => s + x, 0);
  return { expanded, shares, cost };
}
