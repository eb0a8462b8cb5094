import {BrowserManager} from '../browser/core/BrowserManager.js';
import type {Config} from '../config/options.js';
import {createTools} from '../tools/registry.js';
import {addLogRedaction, debug} from '../util/logger.js';
import {PathSandbox} from '../util/sandbox.js';
import type {FilePolicy} from './filePolicy.js';
import {sandboxOptions} from './filePolicy.js';
import {Pipeline} from './pipeline.js';
import {CallScheduler} from './scheduler.js';
import {McpSession, type SessionHost} from './session.js';

/**
 * What every MCP session of one server shares: the configuration, the
 * browser (started on the first call), the tools and the pipeline with its
 * scheduler (the serial lock). Sessions come and go; closing the core closes
 * them all, then the browser (a Chrome we launched is killed).
 */
export class ServerCore implements SessionHost {
  readonly browsers: BrowserManager;
  readonly pipeline: Pipeline;
  readonly #sessions = new Set<McpSession>();
  #closing: Promise<void> | undefined;
  readonly #stopRedacting: () => void;

  constructor(readonly config: Config) {
    const {secrets} = config;
    this.#stopRedacting = secrets ? addLogRedaction(text => secrets.redact(text)) : () => undefined;
    // Until a call refreshes it with its session's roots, the downloads
    // folder must be where a session without roots may write.
    const rootless = new PathSandbox(sandboxOptions(config, 'owner'));
    this.browsers = new BrowserManager(config, dir => rootless.validate(dir));
    this.pipeline = new Pipeline({
      tools: createTools(config),
      config,
      browsers: this.browsers,
      scheduler: new CallScheduler(config.parallelSessions, config.lanes),
    });
  }

  /**
   * A new session. `defaultContext`: work in the browser's default context
   * (the stdio client; HTTP sessions only with --sharedContext), else in a
   * browser context of its own.
   */
  openSession(options: {defaultContext: boolean; files?: FilePolicy}): McpSession {
    if (this.#closing) {
      throw new Error('The server is shutting down.');
    }
    const session = new McpSession(this, options);
    this.#sessions.add(session);
    session.onClose(() => this.#sessions.delete(session));
    return session;
  }

  get sessions(): ReadonlySet<McpSession> {
    return this.#sessions;
  }

  /** Closes every session, then the browser. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await Promise.allSettled([...this.#sessions].map(s => s.close()));
      await this.browsers.shutdown().catch((error: unknown) => debug('browser shutdown failed', error));
      this.#stopRedacting();
    })();
    return this.#closing;
  }
}
