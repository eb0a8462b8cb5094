/** Main-frame navigations whose data is kept: the current one and the two before it. */
export const MAX_NAVIGATIONS_KEPT = 3;

/** Something a collector keeps, with the id tools show and an estimate of its memory. */
export interface Identified {
  readonly id: number;
  /** Approximate bytes held; feeds the per-navigation byte budget. */
  approxBytes: number;
}

export interface BucketLimits {
  /** Most items per navigation; the oldest are dropped beyond it. */
  maxItems: number;
  /** Approximate byte budget per navigation; the oldest are dropped beyond it (the newest always stays). */
  maxBytes: number;
}

interface Bucket<T> {
  items: T[];
  bytes: number;
}

/**
 * Items grouped by main-frame navigation, newest navigation first, bounded in
 * number of navigations, items and bytes. Ids come from one counter per
 * collector that lives as long as the page: navigation never resets it.
 */
export class NavigationBuckets<T extends Identified> {
  #buckets: Array<Bucket<T>> = [{items: [], bytes: 0}];
  #nextId = 1;

  constructor(readonly limits: BucketLimits) {}

  /** Hands out the next id (ids are assigned before the item exists). */
  nextId(): number {
    const id = this.#nextId;
    this.#nextId = id >= Number.MAX_SAFE_INTEGER ? 1 : id + 1;
    return id;
  }

  add(item: T): void {
    const bucket = this.#current;
    bucket.items.push(item);
    bucket.bytes += item.approxBytes;
    this.#trim(bucket);
  }

  /** Adjusts the byte count of an item that grew after it was added (e.g. a response arrived). */
  grew(bytes: number): void {
    const bucket = this.#current;
    bucket.bytes += bytes;
    this.#trim(bucket);
  }

  /**
   * Starts a new navigation. `carry` picks the index in the current bucket from
   * which items move into the new one (the navigation request and what
   * followed it); -1 or undefined moves nothing.
   */
  split(carryFrom?: number): void {
    const current = this.#current;
    const fresh: Bucket<T> = {items: [], bytes: 0};
    if (carryFrom !== undefined && carryFrom >= 0) {
      fresh.items = current.items.splice(carryFrom);
      const moved = fresh.items.reduce((sum, item) => sum + item.approxBytes, 0);
      fresh.bytes = moved;
      current.bytes -= moved;
    }
    this.#buckets.unshift(fresh);
    this.#buckets.length = Math.min(this.#buckets.length, MAX_NAVIGATIONS_KEPT);
  }

  /** Items of the current navigation (newest last). */
  current(): readonly T[] {
    return this.#current.items;
  }

  /** Current navigation only, or every kept navigation oldest first. */
  list(includePreserved: boolean): T[] {
    if (!includePreserved) {
      return [...this.#current.items];
    }
    const out: T[] = [];
    for (let i = this.#buckets.length - 1; i >= 0; i--) {
      out.push(...(this.#buckets[i]?.items ?? []));
    }
    return out;
  }

  find(predicate: (item: T) => boolean): T | undefined {
    for (const bucket of this.#buckets) {
      for (let i = bucket.items.length - 1; i >= 0; i--) {
        const item = bucket.items[i];
        if (item !== undefined && predicate(item)) {
          return item;
        }
      }
    }
    return undefined;
  }

  findById(id: number): T | undefined {
    return this.find(item => item.id === id);
  }

  get navigationCount(): number {
    return this.#buckets.length;
  }

  get totalBytes(): number {
    return this.#buckets.reduce((sum, b) => sum + b.bytes, 0);
  }

  get #current(): Bucket<T> {
    // The array is never empty: it starts with one bucket and split() adds before trimming.
    return this.#buckets[0] as Bucket<T>;
  }

  #trim(bucket: Bucket<T>): void {
    let drop = 0;
    let bytes = bucket.bytes;
    const {items} = bucket;
    while (items.length - drop > 1 && (items.length - drop > this.limits.maxItems || bytes > this.limits.maxBytes)) {
      bytes -= items[drop]?.approxBytes ?? 0;
      drop++;
    }
    if (drop > 0) {
      items.splice(0, drop);
      bucket.bytes = bytes;
    }
  }
}
