import type {resolveAttachEndpoint as resolveAttach} from '../../cdp/attach.js';
import {autoConnectDir} from '../../cdp/autoConnect.js';
import type {BrowserEndpoint} from '../../cdp/browserEndpoint.js';
import type {launchChrome as launch} from '../../cdp/launch.js';
import type {Config} from '../../config/options.js';
import {errorMessage, sleep, TimeoutError} from '../../util/async.js';
import {debug, warn} from '../../util/logger.js';
import type {FolderCheck} from '../downloads/downloads.js';
import {UrlPolicy} from '../network/urlPolicy.js';
import type {Browser} from './Browser.js';
import {pageBoundsFor} from './pageBounds.js';

/** Waits between attempts to reach an attached browser the first time (a typo should fail fast). */
const FIRST_CONNECT_BACKOFF_MS = [250, 500];
/**
 * Waits between attempts after an attached browser's socket dropped (a
 * browser farm restarting a node, a proxy recycling connections): doubling,
 * about 8 s in all before the call that waits for it gets an error.
 */
const RECONNECT_BACKOFF_MS = [100, 250, 500, 1_000, 2_000, 4_000];

/** An endpoint without its query string (farms put tokens there), for messages. */
function shown(url: string | undefined): string {
  return (url ?? '').replace(/\?.*$/, '?…');
}

/**
 * Starts the browser lazily on the first tool call, and again after it went
 * away (crash, kill, disconnect). Sessions notice the new browser (their
 * scope's browser differs) and say so in their next response.
 */
export class BrowserManager {
  #browser: Browser | undefined;
  #starting: Promise<Browser> | undefined;
  #closing = false;
  #everConnected = false;

  /** --blockedUrlPattern / --allowedUrlPattern, enforced on every target of the browser. */
  readonly urlPolicy: UrlPolicy;

  constructor(
    readonly config: Config,
    /** Checks folders against the allowed roots (the downloads folder); by default any folder. */
    readonly checkFolder?: FolderCheck,
  ) {
    this.urlPolicy = new UrlPolicy(config.blockedUrlPatterns, config.allowedUrlPatterns);
  }

  get attached(): boolean {
    return Boolean(this.config.browserUrl || this.config.wsEndpoint || this.config.autoConnect);
  }

  /** The attached browser, for messages: its endpoint, or the profile --autoConnect reads. */
  #attachedTo(): string {
    const c = this.config;
    return c.autoConnect
      ? `in ${autoConnectDir({userDataDir: c.userDataDir, channel: c.channel})}`
      : `at ${shown(c.browserUrl ?? c.wsEndpoint)}`;
  }

  /** The running browser, if any; never starts one. */
  get current(): Browser | undefined {
    return this.#browser?.connected ? this.#browser : undefined;
  }

  async get(): Promise<Browser> {
    if (this.#closing) {
      throw new Error('The server is shutting down.');
    }
    if (this.#browser?.connected) {
      return this.#browser;
    }
    if (this.#browser) {
      // It went away: make sure a launched Chrome is really gone before relaunching.
      const old = this.#browser;
      this.#browser = undefined;
      await old.close().catch(() => undefined);
    }
    this.#starting ??= this.#start().finally(() => (this.#starting = undefined));
    return this.#starting;
  }

  /** Connects (or launches) once, or, for an attached browser, with backoff between attempts. */
  async #start(): Promise<Browser> {
    if (!this.attached) {
      return this.#startOnce();
    }
    const delays = this.#everConnected ? RECONNECT_BACKOFF_MS : FIRST_CONNECT_BACKOFF_MS;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#startOnce();
      } catch (error) {
        const delay = delays[attempt];
        // A handshake that ran out its (long) bound is not retried: Chrome holds it while its user is asked.
        const handshakeTimedOut = error instanceof Error && error.cause instanceof TimeoutError;
        if (delay === undefined || this.#closing || handshakeTimedOut) {
          throw error;
        }
        debug(
          `attaching failed (attempt ${attempt + 1}), retrying in ${delay} ms: ${errorMessage(error instanceof Error && error.cause ? error.cause : error)}`,
        );
        await sleep(delay);
      }
    }
  }

  /**
   * An attached browser's socket dropped: reconnect in the background, so
   * the next call finds it back (or waits for the attempts still running).
   */
  #onDrop(browser: Browser): void {
    if (this.#closing || this.#browser !== browser) {
      return;
    }
    warn(`The connection to Chrome ${this.#attachedTo()} dropped; reconnecting.`);
    this.#browser = undefined;
    void browser.close().catch(() => undefined);
    this.#starting ??= this.#start().finally(() => (this.#starting = undefined));
    this.#starting.catch((error: unknown) => warn('Reconnecting to Chrome failed:', errorMessage(error)));
  }

  async #startOnce(): Promise<Browser> {
    await this.urlPolicy.validate();
    // Loaded on the first call: starting the server and tools/list never pay for chrome-launcher and CDP.
    const [{launchChrome}, {resolveAttachEndpoint}, {Browser}] = await Promise.all([
      import('../../cdp/launch.js'),
      import('../../cdp/attach.js'),
      import('./Browser.js'),
    ]);
    const endpoint = await this.#endpoint(launchChrome, resolveAttachEndpoint);
    const browser = await this.#connect(Browser, endpoint);
    if (this.#closing) {
      await browser.close();
      throw new Error('The server is shutting down.');
    }
    if (this.config.viewport && !this.attached) {
      await applyViewport(browser, this.config.viewport);
    }
    this.#browser = browser;
    this.#everConnected = true;
    if (this.attached) {
      browser.connection.onClose(() => this.#onDrop(browser));
    }
    return browser;
  }

  /** The Chrome to connect to: the one --browserUrl, --wsEndpoint or --autoConnect names, else one launched. */
  #endpoint(launchChrome: typeof launch, resolveAttachEndpoint: typeof resolveAttach): Promise<BrowserEndpoint> {
    const c = this.config;
    return this.attached
      ? resolveAttachEndpoint({
          browserUrl: c.browserUrl,
          wsEndpoint: c.wsEndpoint,
          autoConnect: c.autoConnect ? {userDataDir: c.userDataDir, channel: c.channel} : undefined,
        })
      : launchChrome({
          executablePath: c.executablePath,
          channel: c.channel,
          headless: c.headless,
          isolated: c.isolated,
          userDataDir: c.userDataDir,
          proxyServer: c.proxyServer,
          acceptInsecureCerts: c.acceptInsecureCerts,
          chromeArgs: c.chromeArgs,
          ignoreDefaultChromeArgs: c.ignoreDefaultChromeArgs,
          extensions: c.categoryExtensions,
          enableFeatures: c.categoryExperimentalWebmcp ? ['WebMCP'] : [],
          devtools: c.experimentalDevtools,
          noNetworkPrediction: this.urlPolicy.active,
        });
  }

  /** The browser model over the endpoint; a Chrome it cannot connect to is killed (if launched) and named. */
  async #connect(BrowserClass: typeof Browser, endpoint: BrowserEndpoint): Promise<Browser> {
    const c = this.config;
    try {
      return await BrowserClass.connect(
        endpoint,
        c.wsHeaders,
        this.urlPolicy,
        {dir: c.downloadsDir, check: this.checkFolder},
        {devtools: c.experimentalDevtools, includeAllPages: c.experimentalIncludeAllPages},
        pageBoundsFor(c.pageCallTimeout),
      );
    } catch (error) {
      await endpoint.kill();
      throw new Error(
        this.attached
          ? c.autoConnect
            ? `Could not connect to Chrome ${this.#attachedTo()}. Check that Chrome is running and that remote debugging is enabled at chrome://inspect/#remote-debugging (and accept Chrome's prompt to allow the connection).`
            : `Could not connect to Chrome ${this.#attachedTo()}. Check that it is running with remote debugging enabled${c.wsHeaders ? ' and that --wsHeaders has what the endpoint asks for' : ''}.`
          : 'Could not connect to the launched Chrome.',
        {cause: error},
      );
    }
  }

  /** Kills a Chrome we launched (never one we attached to) and closes the connection. */
  async shutdown(): Promise<void> {
    this.#closing = true;
    const starting = this.#starting;
    if (starting) {
      await starting.catch(() => undefined);
    }
    const browser = this.#browser;
    this.#browser = undefined;
    await browser?.close();
  }
}

/** --viewport on a launched Chrome: the content size of its first page's window (best effort). */
async function applyViewport(browser: Browser, viewport: {width: number; height: number}): Promise<void> {
  const first = browser.pages()[0];
  if (!first) {
    return;
  }
  try {
    const {windowId} = await browser.connection.send('Browser.getWindowForTarget', {targetId: first.targetId});
    await browser.connection.send('Browser.setContentsSize', {windowId, ...viewport});
  } catch (error) {
    debug('could not apply --viewport', error);
  }
}
