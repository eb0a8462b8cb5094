import type {Config} from '../cli/options.js';
import {debug} from '../util/logger.js';
import type {Browser} from './Browser.js';
import type {FolderCheck} from './downloads.js';
import {UrlPolicy} from './urlPolicy.js';

/**
 * Starts the browser lazily on the first tool call, and again after it went
 * away (crash, kill, disconnect), leaving a one-shot note for the next response.
 */
export class BrowserManager {
  #browser: Browser | undefined;
  #starting: Promise<Browser> | undefined;
  #everStarted = false;
  #note: string | undefined;
  #closing = false;

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
    return Boolean(this.config.browserUrl || this.config.wsEndpoint);
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

  async #start(): Promise<Browser> {
    const c = this.config;
    await this.urlPolicy.validate();
    // Loaded on the first tool call, so that starting the server and
    // answering tools/list never pay for chrome-launcher and the CDP client.
    const [{launchChrome}, {resolveAttachEndpoint}, {Browser}] = await Promise.all([
      import('../cdp/launch.js'),
      import('../cdp/attach.js'),
      import('./Browser.js'),
    ]);
    const endpoint = this.attached
      ? await resolveAttachEndpoint({browserUrl: c.browserUrl, wsEndpoint: c.wsEndpoint})
      : await launchChrome({
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
        });
    let browser: Browser;
    try {
      browser = await Browser.connect(endpoint, c.wsHeaders, this.urlPolicy, {
        dir: c.downloadsDir,
        check: this.checkFolder,
      });
    } catch (error) {
      await endpoint.kill();
      throw new Error(
        this.attached
          ? `Could not connect to Chrome at ${c.browserUrl ?? c.wsEndpoint}. Check that it is running with remote debugging enabled.`
          : 'Could not connect to the launched Chrome.',
        {cause: error},
      );
    }
    if (this.#closing) {
      await browser.close();
      throw new Error('The server is shutting down.');
    }
    if (this.#everStarted) {
      this.#note =
        'Note: the browser was restarted or reconnected since the last call. Page ids have changed. Call list_pages to see open pages.';
    }
    this.#everStarted = true;
    if (c.viewport && !this.attached) {
      const first = browser.pages()[0];
      if (first) {
        try {
          const {windowId} = await browser.connection.send('Browser.getWindowForTarget', {targetId: first.targetId});
          await browser.connection.send('Browser.setContentsSize', {windowId, ...c.viewport});
        } catch (error) {
          debug('could not apply --viewport', error);
        }
      }
    }
    this.#browser = browser;
    return browser;
  }

  /** One-shot reconnect note for the next response. */
  takeNote(): string | undefined {
    const note = this.#note;
    this.#note = undefined;
    return note;
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
