/**
 * Which loaded snapshots to unload: least recently used first, until both the
 * snapshot count and the memory they hold fit the limits. Pure bookkeeping;
 * the host does the unloading.
 */
export interface CacheLimits {
  maxSnapshots: number;
  maxBytes: number;
}

export type EvictionReason = 'count' | 'memory';

export interface Eviction {
  key: string;
  reason: EvictionReason;
}

export class SnapshotCache {
  readonly #entries = new Map<string, {bytes: number; lastUsed: number}>();
  #clock = 0;

  constructor(readonly limits: CacheLimits) {}

  get size(): number {
    return this.#entries.size;
  }

  get totalBytes(): number {
    let total = 0;
    for (const entry of this.#entries.values()) {
      total += entry.bytes;
    }
    return total;
  }

  has(key: string): boolean {
    return this.#entries.has(key);
  }

  /** Records a use (or a new entry) and its current size. */
  touch(key: string, bytes?: number): void {
    const entry = this.#entries.get(key);
    this.#entries.set(key, {bytes: bytes ?? entry?.bytes ?? 0, lastUsed: ++this.#clock});
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  /**
   * The entries to unload so that `incoming` more snapshots of `incomingBytes`
   * fit, never one in `keep` (those in use by the current call).
   */
  evictions(keep: ReadonlySet<string>, incoming = 0, incomingBytes = 0): Eviction[] {
    const candidates = [...this.#entries.entries()]
      .filter(([key]) => !keep.has(key))
      .sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    let count = this.#entries.size + incoming;
    let bytes = this.totalBytes + incomingBytes;
    const result: Eviction[] = [];
    for (const [key, entry] of candidates) {
      const reason: EvictionReason | undefined =
        count > this.limits.maxSnapshots ? 'count' : bytes > this.limits.maxBytes ? 'memory' : undefined;
      if (!reason) {
        break;
      }
      result.push({key, reason});
      count--;
      bytes -= entry.bytes;
    }
    return result;
  }
}
