/**
 * A small map whose entries expire, so a stateless node picks up changes made
 * through another node within `ttlMs`, while its own writes invalidate at once.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expires <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** When full, the entry written longest ago makes room: a flood of new keys never empties the cache. */
  set(key: string, value: V, now = Date.now()): void {
    // Re-inserted, so that the Map's order stays the order of writing.
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, expires: now + this.ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  deleteWhere(predicate: (key: string, value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (predicate(key, entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
