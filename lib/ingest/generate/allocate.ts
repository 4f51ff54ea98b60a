/**
 * Splits `total` into integers proportional to `weights`, none above its cap (largest remainder;
 * ties to the lower index). Requires total <= sum of caps.
 */
export function allocate(total: number, weights: ArrayLike<number>, caps: ArrayLike<number>): number[] {
  const n = weights.length;
  const out = new Array<number>(n).fill(0);
  const active: number[] = [];
  for (let i = 0; i < n; i++) if (caps[i]! > 0 && weights[i]! > 0) active.push(i);
  // In order of weight per cap: whoever would get more than its cap gets its cap; this only raises
  // the others' shares, so one pass in this order settles all of them.
  active.sort((a, b) => weights[b]! / caps[b]! - weights[a]! / caps[a]! || a - b);
  let rest = total;
  let restWeight = active.reduce((sum, i) => sum + weights[i]!, 0);
  let first = 0;
  while (first < active.length) {
    const i = active[first]!;
    if ((rest * weights[i]!) / restWeight < caps[i]!) break;
    out[i] = caps[i]!;
    rest -= caps[i]!;
    restWeight -= weights[i]!;
    first++;
  }
  const open = active.slice(first);
  const frac = new Map<number, number>();
  let given = 0;
  for (const i of open) {
    const share = (rest * weights[i]!) / restWeight;
    const base = Math.min(Math.floor(share), caps[i]!);
    out[i] = base;
    given += base;
    frac.set(i, share - base);
  }
  open.sort((a, b) => frac.get(b)! - frac.get(a)! || a - b);
  let left = rest - given;
  while (left > 0) {
    let progressed = false;
    for (const i of open) {
      if (left === 0) break;
      if (out[i]! < caps[i]!) {
        out[i]! += 1;
        left--;
        progressed = true;
      }
    }
    if (!progressed) throw new Error('internal: allocation exceeds capacity');
  }
  return out;
}
