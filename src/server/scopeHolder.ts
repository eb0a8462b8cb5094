import type {BrowserManager} from '../browser/core/BrowserManager.js';
import {BrowserScope} from '../browser/core/BrowserScope.js';
import {debug} from '../util/logger.js';

const RESTART_NOTE =
  'Note: the browser was restarted or reconnected since the last call. Page ids have changed. Call list_pages to see open pages.';

/**
 * One session's hold on the browser across restarts and reconnects: its
 * BrowserScope, opened on the session's first call (the browser starts
 * lazily) and again on a new connection (taking its contexts back when the
 * browser kept them), with a one-shot note for the next response.
 */
export class ScopeHolder {
  #scope: BrowserScope | undefined;
  #opening: Promise<BrowserScope> | undefined;
  #note: string | undefined;
  #closed = false;

  constructor(
    readonly browsers: BrowserManager,
    readonly options: {defaultContext: boolean; downloadsDir?: () => Promise<string>},
  ) {}

  /** The scope, if one is open (never starts anything). */
  get current(): BrowserScope | undefined {
    return this.#scope;
  }

  async get(): Promise<BrowserScope> {
    if (this.#closed) {
      throw new Error('This MCP session has ended.');
    }
    const browser = await this.browsers.get();
    if (this.#scope && this.#scope.browser === browser && !this.#scope.closed) {
      return this.#scope;
    }
    this.#opening ??= this.#open().finally(() => (this.#opening = undefined));
    return this.#opening;
  }

  async #open(): Promise<BrowserScope> {
    const browser = await this.browsers.get();
    const previous = this.#scope;
    this.#scope = undefined;
    await previous?.close();
    const {config} = this.browsers;
    const scope = await BrowserScope.open(browser, {
      defaultContext: this.options.defaultContext,
      previous: previous?.contexts(),
      viewport: this.browsers.attached ? undefined : config.viewport,
      downloadsDir: await this.options.downloadsDir?.(),
    });
    if (this.#closed) {
      await scope.close();
      throw new Error('This MCP session has ended.');
    }
    if (previous) {
      this.#note = RESTART_NOTE;
    }
    this.#scope = scope;
    return scope;
  }

  takeNote(): string | undefined {
    const note = this.#note;
    this.#note = undefined;
    return note;
  }

  /** Closes the session's contexts and the pages it opened. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#opening?.catch((error: unknown) => debug('session scope did not open', error));
    const scope = this.#scope;
    this.#scope = undefined;
    await scope?.close();
  }
}
