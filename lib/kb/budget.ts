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
