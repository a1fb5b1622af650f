/**
 * Spans [start, end) of a text kept so far, none overlapping another, for the "best first, drop what overlaps" choice
 * of the entity matchers and the wordlists: whether a new span overlaps a kept one (`!(end <= kept.start || start >=
 * kept.end)` for some kept span) in logarithmic time. Comparing each candidate with every kept span took seconds on a
 * 100,000-character text with tens of thousands of matches.
 */
export class DisjointSpans {
  /** Fenwick trees counting the kept spans by start: non-empty ones and empty ones apart. */
  private readonly starts: Int32Array;
  private readonly emptyStarts: Int32Array;
  /** inside[p]: p lies strictly inside a kept span (start < p < end). */
  private readonly inside: Uint8Array;

  /** `size`: the largest end of any span that will be asked about. */
  constructor(private readonly size: number) {
    this.starts = new Int32Array(size + 2);
    this.emptyStarts = new Int32Array(size + 2);
    this.inside = new Uint8Array(size + 1);
  }

  overlaps(start: number, end: number): boolean {
    if (this.inside[start] === 1) return true;
    // A non-empty kept span starting in [start, end) overlaps; an empty one only strictly inside (start, end).
    if (end > start && count(this.starts, end) - count(this.starts, start) > 0) return true;
    return end > start + 1 && count(this.emptyStarts, end) - count(this.emptyStarts, start + 1) > 0;
  }

  /** Keeps a span that overlaps none kept (the caller asked `overlaps`): marking it costs its length, at most the text's in all. */
  add(start: number, end: number): void {
    if (end === start) {
      increment(this.emptyStarts, start);
      return;
    }
    increment(this.starts, start);
    for (let p = start + 1; p < end; p++) this.inside[p] = 1;
  }
}

/** How many positions below `before` the tree counts. */
function count(tree: Int32Array, before: number): number {
  let total = 0;
  for (let i = Math.min(before, tree.length - 1); i > 0; i -= i & -i) total += tree[i]!;
  return total;
}

function increment(tree: Int32Array, position: number): void {
  for (let i = position + 1; i < tree.length; i += i & -i) tree[i] = tree[i]! + 1;
}
