/**
 * The WebMCP tools a page registers (`document.modelContext.registerTool`),
 * through the `WebMCP` domain of its session (Chrome with
 * `--enable-features=WebMCP`). Enabled on a page the first time a tool asks:
 * enabling reports the tools already registered before it answers, and the
 * domain's events keep the list current from then on.
 */
import type {Protocol} from '../../../protocol/index.js';
import {CdpTimeoutError} from '../../cdp/errors.js';
import {abortable, CancelledError, withTimeout} from '../../util/async.js';
import type {Page} from '../core/Page.js';
import {secondsText} from '../core/pageBounds.js';

/** A tool as the page registered it. */
export interface WebMcpTool {
  name: string;
  description: string;
  inputSchema?: Record<string, unknown>;
  annotations?: Protocol.WebMCP.Annotation;
  frameId: string;
}

/** What the page's tool answered. */
export interface WebMcpResult {
  status: string;
  output?: unknown;
  errorText?: string;
  /** What the tool threw (its description: message and stack). */
  error?: string;
}

class PageWebMcp {
  readonly #tools = new Map<string, WebMcpTool>();
  readonly #answered = new Map<string, WebMcpResult>();
  readonly #waiting = new Map<string, (result: WebMcpResult) => void>();
  #enabled: Promise<unknown> | undefined;

  constructor(readonly page: Page) {
    const {session} = page;
    const key = (frameId: string, name: string) => `${frameId}\n${name}`;
    session.on('WebMCP.toolsAdded', ({tools}) => {
      for (const {name, description, inputSchema, annotations, frameId} of tools) {
        // The protocol types the schema as any: it is the JSON object the page passed.
        const schema = inputSchema as Record<string, unknown> | undefined;
        this.#tools.set(key(frameId, name), {name, description, inputSchema: schema, annotations, frameId});
      }
    });
    session.on('WebMCP.toolsRemoved', ({tools}) => {
      for (const {name, frameId} of tools) {
        this.#tools.delete(key(frameId, name));
      }
    });
    // A new document in a frame has registered nothing yet.
    session.on('Page.frameNavigated', ({frame, type}) => {
      if (type === 'Navigation') {
        for (const [k, tool] of this.#tools) {
          if (tool.frameId === frame.id || !frame.parentId) {
            this.#tools.delete(k);
          }
        }
      }
    });
    session.on('WebMCP.toolResponded', ({invocationId, status, output, errorText, exception}) => {
      const thrown = exception ? (exception.description ?? String(exception.value)) : undefined;
      // A thrown error comes with an empty errorText: the exception says it all.
      const result: WebMcpResult = thrown ? {status, output, error: thrown} : {status, output, errorText};
      const waiter = this.#waiting.get(invocationId);
      if (waiter) {
        waiter(result);
      } else {
        // The answer can come before invokeTool's own reply names the invocation.
        this.#answered.set(invocationId, result);
      }
    });
  }

  /**
   * Enables the domain once (it reports the tools already registered before
   * it answers). A page that does not answer (busy, paused) fails this call
   * with the bound's error and the next one asks again; a Chrome without
   * the domain fails every call.
   */
  #enable(): Promise<unknown> {
    const enabled = (this.#enabled ??= this.page.session
      .send('WebMCP.enable', {}, this.page.bounds.answerMs)
      .catch((error: unknown) => {
        if (error instanceof CdpTimeoutError) {
          this.#enabled = undefined;
          throw error;
        }
        throw new Error(
          'This Chrome offers no WebMCP (it needs Chrome 150+ started with --enable-features=WebMCP, which a Chrome this server launches gets).',
          {cause: error},
        );
      }));
    // Reported by list() and invoke(), not as an unhandled rejection.
    enabled.catch(() => undefined);
    return enabled;
  }

  /** The page's tools; `signal` (the call's) stops the wait. */
  async list(signal?: AbortSignal): Promise<WebMcpTool[]> {
    await abortable(this.#enable(), signal);
    return [...this.#tools.values()];
  }

  /**
   * Runs the page's tool and waits for its answer, at most the bound of a
   * script run (60 s, or --pageCallTimeout). When the wait ends without one
   * (the bound, or `signal`: the call cancelled, or the guard gave up on the
   * page) the invocation is cancelled in the page at once, and nothing else
   * is sent.
   */
  async invoke(name: string, input: Record<string, unknown>, signal?: AbortSignal): Promise<WebMcpResult> {
    const tool = (await this.list(signal)).find(t => t.name === name);
    if (!tool) {
      throw new Error(`Tool ${name} not found`);
    }
    const {session, bounds} = this.page;
    const invoked = session.send('WebMCP.invokeTool', {frameId: tool.frameId, toolName: name, input}, bounds.answerMs);
    let invocationId: string;
    try {
      ({invocationId} = await abortable(invoked, signal));
    } catch (error) {
      if (error instanceof CancelledError) {
        // Invoked all the same once the page answers: cancel it then.
        void invoked.then(
          r => session.trySend('WebMCP.cancelInvocation', {invocationId: r.invocationId}),
          () => {},
        );
      }
      throw error;
    }
    const early = this.#answered.get(invocationId);
    this.#answered.delete(invocationId);
    if (early) {
      return early;
    }
    const answer = new Promise<WebMcpResult>(resolve => this.#waiting.set(invocationId, resolve));
    try {
      return await withTimeout(
        abortable(answer, signal),
        bounds.workMs,
        `Tool ${name} did not answer within ${secondsText(bounds.workMs)}; its invocation was cancelled.`,
      );
    } catch (error) {
      await session.trySend('WebMCP.cancelInvocation', {invocationId});
      throw error;
    } finally {
      this.#waiting.delete(invocationId);
    }
  }
}

declare module '../core/Page.js' {
  interface PageSlots {
    webMcp?: PageWebMcp;
  }
}

/** The page's WebMCP tools (the domain is enabled on first use). */
export function webMcpOf(page: Page): PageWebMcp {
  return (page.slots.webMcp ??= new PageWebMcp(page));
}
