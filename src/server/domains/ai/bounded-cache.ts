/**
 * A small in-memory cache with a cap on entries (least recently used goes first) and an age limit, for
 * drafts and repeated AI requests: memory stays bounded whatever callers send.
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, { value: V; at: number }>();

  constructor(private readonly limits: { entries: number; ttlMs: number }) {}

  /** The value, if present and not too old; it becomes the most recently used. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (Date.now() - entry.at > this.limits.ttlMs) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores a value, evicting the least recently used entries past the cap. */
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, at: Date.now() });
    while (this.entries.size > this.limits.entries) this.entries.delete(this.entries.keys().next().value as K);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
