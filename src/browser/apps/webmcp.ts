/**
 * The WebMCP tools a page registers (`document.modelContext.registerTool`),
 * through the `WebMCP` domain of its session (Chrome with
 * `--enable-features=WebMCP`). Enabled on a page the first time a tool asks:
 * enabling reports the tools already registered before it answers, and the
 * domain's events keep the list current from then on.
 */
import type {Protocol} from '../../../protocol/index.js';
import type {CdpSession} from '../../cdp/CdpConnection.js';
import {withTimeout} from '../../util/async.js';
import type {Page} from '../core/Page.js';

/** How long a page's tool may take to answer. */
export const WEBMCP_INVOKE_TIMEOUT_MS = 60_000;

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
  readonly #enabled: Promise<unknown>;

  constructor(readonly session: CdpSession) {
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
    this.#enabled = session.send('WebMCP.enable').catch((error: unknown) => {
      throw new Error(
        'This Chrome offers no WebMCP (it needs Chrome 150+ started with --enable-features=WebMCP, which a Chrome this server launches gets).',
        {cause: error},
      );
    });
    // Reported by list() and invoke(), not as an unhandled rejection.
    this.#enabled.catch(() => undefined);
  }

  async list(): Promise<WebMcpTool[]> {
    await this.#enabled;
    return [...this.#tools.values()];
  }

  async invoke(name: string, input: Record<string, unknown>): Promise<WebMcpResult> {
    const tool = (await this.list()).find(t => t.name === name);
    if (!tool) {
      throw new Error(`Tool ${name} not found`);
    }
    const {invocationId} = await this.session.send('WebMCP.invokeTool', {frameId: tool.frameId, toolName: name, input});
    const early = this.#answered.get(invocationId);
    this.#answered.delete(invocationId);
    if (early) {
      return early;
    }
    const answer = new Promise<WebMcpResult>(resolve => this.#waiting.set(invocationId, resolve));
    try {
      return await withTimeout(
        answer,
        WEBMCP_INVOKE_TIMEOUT_MS,
        `Tool ${name} did not answer within ${WEBMCP_INVOKE_TIMEOUT_MS / 1000} s; its invocation was cancelled.`,
      );
    } catch (error) {
      await this.session.trySend('WebMCP.cancelInvocation', {invocationId});
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
  return (page.slots.webMcp ??= new PageWebMcp(page.session));
}
