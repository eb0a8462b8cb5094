import {deferred} from '../../util/async.js';

/** A browser context we know of: the session that owns it (none for external ones) and its name there. */
export interface ContextRecord {
  ownerId: number | undefined;
  name: string | undefined;
}

/**
 * The browser contexts a Browser knows: the default one, those sessions
 * made or took over (with their owner and name), those found made outside
 * this server (a generated name); and the context of every target Chrome
 * reports, to tell when a disposed context's targets are gone.
 */
export class BrowserContexts {
  /** The default context's id (undefined when Chrome did not say). */
  defaultId: string | undefined;
  readonly #records = new Map<string, ContextRecord>();
  /** Every target Chrome reports (tabs, workers, … not only pages), by id: its context. */
  readonly #targets = new Map<string, string | undefined>();
  /** Called whenever a target goes away. */
  readonly #targetGoneListeners = new Set<() => void>();
  #autoCounter = 1;

  get(browserContextId: string): ContextRecord | undefined {
    return this.#records.get(browserContextId);
  }

  set(browserContextId: string, record: ContextRecord): void {
    this.#records.set(browserContextId, record);
  }

  delete(browserContextId: string): void {
    this.#records.delete(browserContextId);
  }

  values(): IterableIterator<ContextRecord> {
    return this.#records.values();
  }

  /** The name pages of a context show (isolatedContext); undefined in the default context. */
  nameFor(browserContextId: string | undefined): string | undefined {
    if (!browserContextId || this.#isDefault(browserContextId)) {
      return undefined;
    }
    const known = this.#records.get(browserContextId);
    if (known) {
      return known.name;
    }
    // A context created outside this server gets a generated name.
    const name = `isolated-context-${this.#autoCounter++}`;
    this.#records.set(browserContextId, {ownerId: undefined, name});
    return name;
  }

  #isDefault(browserContextId: string | undefined): boolean {
    return !browserContextId || !this.defaultId || browserContextId === this.defaultId;
  }

  targetCreated(targetId: string, browserContextId: string | undefined): void {
    this.#targets.set(targetId, browserContextId);
  }

  targetDestroyed(targetId: string): void {
    this.#targets.delete(targetId);
    for (const listener of this.#targetGoneListeners) {
      listener();
    }
  }

  /** Resolves once no known target is in `browserContextId`. */
  targetsGone(browserContextId: string): {promise: Promise<void>; cancel: () => void} {
    const done = deferred<void>();
    const check = () => {
      if (![...this.#targets.values()].includes(browserContextId)) {
        done.resolve();
      }
    };
    this.#targetGoneListeners.add(check);
    check();
    return {promise: done.promise, cancel: () => this.#targetGoneListeners.delete(check)};
  }
}
