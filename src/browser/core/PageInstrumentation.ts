import type {Protocol} from '../../../protocol/index.js';
import type {CdpSession} from '../../cdp/CdpConnection.js';
import {debug, warn} from '../../util/logger.js';
import {ConsoleCollector} from '../console/ConsoleCollector.js';
import {applySessionEmulation, type EmulationState, type SessionKind} from '../emulation/emulationState.js';
import {NetworkCollector} from '../network/NetworkCollector.js';
import type {MockSet} from '../network/networkMocks.js';
import {MAX_POST_DATA_BYTES} from '../network/networkRecord.js';
import {noteBlockedWorker, type UrlPolicy, watchPolicy} from '../network/urlPolicy.js';
import {SourceMaps} from '../script/sourceMaps.js';
import {unbufferInput} from './unbufferedInput.js';

/**
 * Response bodies Chrome keeps outside the renderer, so they survive
 * navigations (Network.configureDurableMessages). Chrome evicts the oldest
 * beyond the total; bodies above the per-resource size are not kept.
 */
export const DURABLE_BODY_BUFFER_BYTES = 50 * 1024 * 1024;
export const DURABLE_BODY_MAX_BYTES = 10 * 1024 * 1024;
/** Same for out-of-process frames and workers (each session has its own buffer). */
const CHILD_BODY_BUFFER_BYTES = 10 * 1024 * 1024;
const CHILD_BODY_MAX_BYTES = 5 * 1024 * 1024;
/** Scripts no longer referenced that V8 keeps for the debugger (source-mapped stacks). */
const SCRIPTS_CACHE_BYTES = 10 * 1024 * 1024;
/** Async stack depth (as DevTools): gives "--- setTimeout ---" fragments. */
const ASYNC_STACK_DEPTH = 32;

interface Child {
  session: CdpSession;
  kind: SessionKind;
  off: Array<() => void>;
}

/**
 * Everything a page observes beyond navigation: console and network
 * collectors, script source maps, and the out-of-process frames and workers
 * it owns (auto-attached, paused until set up, so their first requests obey
 * the URL policy and are recorded).
 */
export class PageInstrumentation {
  readonly network: NetworkCollector;
  readonly console = new ConsoleCollector();
  readonly sourceMaps = new SourceMaps();
  readonly #children = new Map<string, Child>();
  readonly #off: Array<() => void> = [];
  /** Whether the main frame has shown a document (a blocked first document is a new window). */
  #navigated = false;

  constructor(
    readonly session: CdpSession,
    readonly mainFrameId: string,
    readonly policy: UrlPolicy,
    readonly emulation: () => EmulationState,
    readonly mocks: MockSet,
  ) {
    this.network = new NetworkCollector(mainFrameId);
    this.#off.push(
      this.network.attach(session),
      this.console.attach(session, {issues: true}),
      this.sourceMaps.attach(session),
      session.on('Page.frameNavigated', ({frame}) => {
        // Cross-document commits only: same-document navigations fire navigatedWithinDocument instead.
        if (frame.parentId === undefined && frame.id === mainFrameId) {
          this.network.onMainFrameNavigated();
          this.console.onMainFrameNavigated();
          void unbufferInput(session);
        }
      }),
      session.on('Target.attachedToTarget', event => this.#onChild(event)),
      watchPolicy(session, policy, {pageTargetId: session.targetId, mainFrameId, hasNavigated: () => this.#navigated}),
      session.on('Page.frameNavigated', ({frame}) => (this.#navigated ||= frame.id === mainFrameId)),
    );
  }

  /** Commands for the page session, sent before the target resumes. */
  setUp(): Array<Promise<unknown>> {
    const s = this.session;
    return [
      s.trySend('Network.enable', {maxPostDataSize: MAX_POST_DATA_BYTES}),
      s.trySend('Network.configureDurableMessages', {
        maxTotalBufferSize: DURABLE_BODY_BUFFER_BYTES,
        maxResourceBufferSize: DURABLE_BODY_MAX_BYTES,
      }),
      s.trySend('Log.enable'),
      s.trySend('Audits.enable'),
      s.trySend('Debugger.enable', {maxScriptsCacheSize: SCRIPTS_CACHE_BYTES}),
      // The debugger is only there to learn about scripts: never pause the page.
      s.trySend('Debugger.setSkipAllPauses', {skip: true}),
      s.trySend('Debugger.setAsyncCallStackDepth', {maxDepth: ASYNC_STACK_DEPTH}),
      this.#emulate(s, 'page'),
      this.#intercept(s),
      s.trySend('Target.setAutoAttach', {autoAttach: true, waitForDebuggerOnStart: true, flatten: true}),
      unbufferInput(s),
    ];
  }

  /** The page session and every attached frame/worker session, for emulation changes. */
  sessions(): Array<{session: CdpSession; kind: SessionKind}> {
    return [
      {session: this.session, kind: 'page'},
      ...[...this.#children.values()].map(c => ({session: c.session, kind: c.kind})),
    ];
  }

  /** Network mocks answer the session's requests; the marks show in list_network_requests. */
  #intercept(session: CdpSession): Promise<unknown> {
    return this.mocks.attach(session, (networkId, mock) => this.network.markMocked(networkId, mock));
  }

  dispose(): void {
    this.mocks.detach(this.session);
    for (const child of this.#children.values()) {
      this.mocks.detach(child.session);
    }
    for (const off of this.#off) {
      off();
    }
    this.#off.length = 0;
    for (const child of this.#children.values()) {
      for (const off of child.off) {
        off();
      }
    }
    this.#children.clear();
  }

  async #emulate(session: CdpSession, kind: SessionKind): Promise<void> {
    try {
      await applySessionEmulation(session, kind, this.emulation(), this.policy, false);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (this.policy.active) {
        warn(`Could not apply the URL policy to a ${kind} target: ${message}`);
      } else {
        debug(`emulation of a new ${kind} target failed`, message);
      }
    }
  }

  /** What the page records of a child session (its requests, console, scripts, what the policy blocks). */
  #observe(session: CdpSession, kind: SessionKind, url: string): Array<() => void> {
    if (kind === 'worker') {
      noteBlockedWorker(this.policy, url, this.session.targetId);
    }
    return [
      watchPolicy(session, this.policy, {pageTargetId: this.session.targetId}),
      this.network.attach(session),
      this.console.attach(session, {issues: kind === 'frame'}),
      this.sourceMaps.attach(session),
      ...(kind === 'frame' ? [session.on('Target.attachedToTarget', event => this.#onChild(event))] : []),
    ];
  }

  #onChild({sessionId, targetInfo, waitingForDebugger}: Protocol.Target.AttachedToTargetEvent): void {
    const type = targetInfo.type;
    const kind: SessionKind | undefined =
      type === 'iframe'
        ? 'frame'
        : type === 'worker' || type === 'shared_worker' || type === 'service_worker'
          ? 'worker'
          : undefined;
    const session = this.session.connection.session(sessionId, targetInfo.targetId, type);
    if (!kind) {
      void (async () => {
        if (waitingForDebugger) {
          await session.trySend('Runtime.runIfWaitingForDebugger');
        }
        await this.session.trySend('Target.detachFromTarget', {sessionId});
      })();
      return;
    }
    const child: Child = {session, kind, off: this.#observe(session, kind, targetInfo.url)};
    this.#children.set(sessionId, child);
    session.onDetached(() => {
      for (const off of child.off) {
        off();
      }
      this.#children.delete(sessionId);
    });
    const setUp = [
      session.trySend('Runtime.enable'),
      session.trySend('Network.enable', {maxPostDataSize: MAX_POST_DATA_BYTES}),
      session.trySend('Network.configureDurableMessages', {
        maxTotalBufferSize: CHILD_BODY_BUFFER_BYTES,
        maxResourceBufferSize: CHILD_BODY_MAX_BYTES,
      }),
      session.trySend('Debugger.enable', {maxScriptsCacheSize: SCRIPTS_CACHE_BYTES}),
      session.trySend('Debugger.setSkipAllPauses', {skip: true}),
      session.trySend('Debugger.setAsyncCallStackDepth', {maxDepth: ASYNC_STACK_DEPTH}),
      this.#emulate(session, kind),
      this.#intercept(session),
    ];
    if (kind === 'frame') {
      setUp.push(
        session.trySend('Log.enable'),
        session.trySend('Audits.enable'),
        session.trySend('Target.setAutoAttach', {autoAttach: true, waitForDebuggerOnStart: true, flatten: true}),
        unbufferInput(session),
      );
    }
    if (waitingForDebugger) {
      // Commands are handled in order: the target runs only after the set-up above.
      void session.trySend('Runtime.runIfWaitingForDebugger');
    }
    void Promise.all(setUp);
  }
}
