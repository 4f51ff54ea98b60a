/**
 * Postings per stored block (0036_bm25_posting_blocks): small enough that a block's ids and counts (4 KB
 * before compression) stay in its row and one entity's count is a short scan, large enough that a row's
 * overhead is a fraction of a byte per posting.
 */
export const BLOCK_POSTINGS = 512;

/** A segment's blocks, as columns: each block's term, last entity id, entity ids, counts and adjacency (`bm25-adjacent.ts`). */
export interface BlockRows {
  term: number[];
  last: number[];
  entities: Int32Array[];
  tfs: Int32Array[];
  adjacent: Uint16Array[];
}

/**
 * Gathers a build's pages (documents in entity id order, each page's postings grouped by term) and cuts them
 * into blocks: a term's postings across the pages gathered, entity ids rising, BLOCK_POSTINGS at most per
 * block. A build cuts a segment whenever `size` grows past what it keeps in memory, so a term that runs
 * through several segments has blocks in each; each block is keyed by its last entity id, so a term's
 * blocks still read in entity order.
 */
export class BlockBuilder {
  private pages: { term: Int32Array; entity: Int32Array; tf: Int32Array; adjacent: Uint16Array }[] = [];
  private maxTerm = 0;
  /** Postings gathered since the last cut. */
  size = 0;

  add(page: { term: number[]; entity: number[]; tf: number[]; adjacent: number[] }): void {
    if (!page.term.length) return;
    const term = Int32Array.from(page.term);
    for (let i = 0; i < term.length; i++) if (term[i]! > this.maxTerm) this.maxTerm = term[i]!;
    this.pages.push({ term, entity: Int32Array.from(page.entity), tf: Int32Array.from(page.tf), adjacent: Uint16Array.from(page.adjacent) });
    this.size += term.length;
  }

  /** The gathered postings as blocks, term by term (rising), and a fresh start. */
  cut(): BlockRows {
    const pages = this.pages;
    const total = this.size;
    const starts = new Int32Array(this.maxTerm + 2);
    for (const p of pages) for (let i = 0; i < p.term.length; i++) starts[p.term[i]! + 1]! += 1;
    for (let t = 1; t < starts.length; t++) starts[t]! += starts[t - 1]!;
    // Laid out by term; within a term in page order, which is entity order.
    const next = starts.slice(0, -1);
    const entity = new Int32Array(total);
    const tf = new Int32Array(total);
    const adjacent = new Uint16Array(total);
    for (const p of pages) {
      for (let i = 0; i < p.term.length; i++) {
        const at = next[p.term[i]!]!++;
        entity[at] = p.entity[i]!;
        tf[at] = p.tf[i]!;
        adjacent[at] = p.adjacent[i]!;
      }
    }
    const rows: BlockRows = { term: [], last: [], entities: [], tfs: [], adjacent: [] };
    for (let t = 0; t + 1 < starts.length; t++) {
      for (let from = starts[t]!; from < starts[t + 1]!; from += BLOCK_POSTINGS) {
        const to = Math.min(from + BLOCK_POSTINGS, starts[t + 1]!);
        rows.term.push(t);
        rows.last.push(entity[to - 1]!);
        rows.entities.push(entity.subarray(from, to));
        rows.tfs.push(tf.subarray(from, to));
        rows.adjacent.push(adjacent.subarray(from, to));
      }
    }
    this.pages = [];
    this.size = 0;
    return rows;
  }
}

/** Block rows read in (term, last entity) order, as each term and its rows in order. */
export function* blocksByTerm<R extends { id: number }>(rows: R[]): Generator<[number, R[]]> {
  for (let from = 0; from < rows.length;) {
    const id = rows[from]!.id;
    let to = from + 1;
    while (to < rows.length && rows[to]!.id === id) to++;
    yield [id, rows.slice(from, to)];
    from = to;
  }
}

/** How many elements an `array_send` int4[] holds. */
export const int4ArrayLength = (buf: Buffer) => (buf.length < 16 || buf.readInt32BE(0) === 0 ? 0 : buf.readInt32BE(12));

/**
 * The elements of a one-dimensional int4[] without nulls as `array_send` writes it (what a binary-format
 * result carries): a 20-byte header (dimensions, null flag, element type, length, lower bound), then each
 * element's 4-byte length and big-endian value. Written into `out` from `at`.
 */
export function readInt4Array(buf: Buffer, out: Int32Array, at: number): number {
  const n = int4ArrayLength(buf);
  for (let i = 0; i < n; i++) out[at + i] = buf.readInt32BE(20 + 8 * i + 4);
  return n;
}
