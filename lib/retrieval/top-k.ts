/**
 * The k best (score, id) pairs seen so far: a binary min-heap whose root is the worst kept pair, so a
 * candidate is compared with one value and most are rejected at once. Higher scores are better; equal
 * scores go to the lower id, so the result does not depend on the order candidates arrive in.
 */
export class TopK {
  private readonly scores: Float64Array;
  private readonly ids: Int32Array;
  private readonly slots: Int32Array;
  size = 0;

  constructor(readonly k: number) {
    this.scores = new Float64Array(k);
    this.ids = new Int32Array(k);
    this.slots = new Int32Array(k);
  }

  /** a is worse than b. */
  private worse(a: number, b: number): boolean {
    return this.scores[a]! < this.scores[b]! || (this.scores[a] === this.scores[b] && this.ids[a]! > this.ids[b]!);
  }

  /** Whether (score, id) would be kept: the cheap test the scan runs on every candidate. */
  admits(score: number, id: number): boolean {
    if (this.size < this.k) return true;
    const s = this.scores[0]!;
    return score > s || (score === s && id < this.ids[0]!);
  }

  /** The worst kept score (the k-th best once k are kept); -Infinity while fewer are. */
  lowest(): number {
    return this.size < this.k ? -Infinity : this.scores[0]!;
  }

  /** Offers a candidate; `slot` is what comes back with it (e.g. its row). */
  push(score: number, id: number, slot: number): void {
    if (!this.admits(score, id)) return;
    let i: number;
    if (this.size < this.k) {
      i = this.size++;
      this.set(i, score, id, slot);
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.worse(i, parent)) break;
        this.swap(i, parent);
        i = parent;
      }
      return;
    }
    this.set(0, score, id, slot);
    i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let w = i;
      if (l < this.size && this.worse(l, w)) w = l;
      if (r < this.size && this.worse(r, w)) w = r;
      if (w === i) break;
      this.swap(i, w);
      i = w;
    }
  }

  /** The kept candidates, best first. */
  sorted(): { score: number; id: number; slot: number }[] {
    const out = Array.from({ length: this.size }, (_, i) => ({ score: this.scores[i]!, id: this.ids[i]!, slot: this.slots[i]! }));
    return out.sort((a, b) => b.score - a.score || a.id - b.id);
  }

  private set(i: number, score: number, id: number, slot: number): void {
    this.scores[i] = score;
    this.ids[i] = id;
    this.slots[i] = slot;
  }

  private swap(a: number, b: number): void {
    const s = this.scores[a]!; this.scores[a] = this.scores[b]!; this.scores[b] = s;
    const d = this.ids[a]!; this.ids[a] = this.ids[b]!; this.ids[b] = d;
    const t = this.slots[a]!; this.slots[a] = this.slots[b]!; this.slots[b] = t;
  }
}
