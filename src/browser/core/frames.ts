import type {Protocol} from '../../../protocol/index.js';
import type {CdpSession} from '../../cdp/CdpConnection.js';
import {debug} from '../../util/logger.js';

/** An out-of-process iframe: its own target and session, and the session of the frame that embeds it. */
export interface OopifSession {
  session: CdpSession;
  parent: CdpSession;
}

/**
 * Frames of one page that need more than the page session: out-of-process
 * iframes (auto-attached per page, nested ones through their parent's
 * session) and the main-world execution context of every frame, so snapshot
 * and actions can run in cross-origin frames too. Only tracks them:
 * PageInstrumentation turns auto-attach on and resumes each target, once (a
 * second Target.setAutoAttach on a session whose child is still waiting for
 * the debugger makes Chrome drop that child, and its frame never loads).
 */
export class PageFrames {
  /** OOPIF sessions by frame id (= target id). */
  readonly #oopifs = new Map<string, OopifSession>();
  /** Per session: frame id → id of its main-world execution context. */
  readonly #contexts = new Map<CdpSession, Map<string, number>>();
  readonly #off: Array<() => void> = [];

  constructor(readonly pageSession: CdpSession) {
    this.#watch(pageSession);
  }

  oopif(frameId: string): OopifSession | undefined {
    const entry = this.#oopifs.get(frameId);
    return entry && !entry.session.detached ? entry : undefined;
  }

  /** Sessions of the page's out-of-process iframes that are still attached, in attach order. */
  oopifSessions(): CdpSession[] {
    return [...this.#oopifs.values()].filter(entry => !entry.session.detached).map(entry => entry.session);
  }

  /** The OOPIF entry whose session is `session`. */
  bySession(session: CdpSession): OopifSession | undefined {
    for (const entry of this.#oopifs.values()) {
      if (entry.session === session) {
        return entry;
      }
    }
    return undefined;
  }

  /** Main-world context of `frameId` in `session`, if the frame lives there. */
  contextOf(session: CdpSession, frameId: string): number | undefined {
    return this.#contexts.get(session)?.get(frameId);
  }

  /**
   * The main-world execution context of every frame the page has: the page
   * session's own frames (in-process iframes included, cross-origin or not),
   * then those of each attached out-of-process iframe session.
   */
  contexts(): Array<{session: CdpSession; frameId: string; contextId: number}> {
    const all: Array<{session: CdpSession; frameId: string; contextId: number}> = [];
    for (const [session, contexts] of this.#contexts) {
      if (session.detached) {
        continue;
      }
      for (const [frameId, contextId] of contexts) {
        all.push({session, frameId, contextId});
      }
    }
    return all;
  }

  dispose(): void {
    for (const off of this.#off) {
      off();
    }
    this.#off.length = 0;
  }

  #watch(session: CdpSession): void {
    const contexts = new Map<string, number>();
    this.#contexts.set(session, contexts);
    this.#off.push(
      session.on('Runtime.executionContextCreated', ({context}) => {
        const aux = context.auxData as {frameId?: string; isDefault?: boolean} | undefined;
        if (aux?.frameId && aux.isDefault) {
          contexts.set(aux.frameId, context.id);
        }
      }),
      session.on('Runtime.executionContextDestroyed', ({executionContextId}) => {
        for (const [frameId, id] of contexts) {
          if (id === executionContextId) {
            contexts.delete(frameId);
          }
        }
      }),
      session.on('Runtime.executionContextsCleared', () => contexts.clear()),
      session.on('Target.attachedToTarget', event => this.#onAttached(session, event)),
    );
  }

  #onAttached(parent: CdpSession, {sessionId, targetInfo}: Protocol.Target.AttachedToTargetEvent): void {
    const connection = parent.connection;
    if (targetInfo.type !== 'iframe') {
      // Workers and other child targets are PageInstrumentation's (console,
      // network and the URL policy apply to them); it resumes or detaches them.
      return;
    }
    const session = connection.session(sessionId, targetInfo.targetId, targetInfo.type);
    // The page's bound of answers holds in its frames too (Page sets it on its own session).
    session.defaultTimeoutMs = parent.defaultTimeoutMs;
    this.#oopifs.set(targetInfo.targetId, {session, parent});
    this.#watch(session);
    session.onDetached(() => {
      if (this.#oopifs.get(targetInfo.targetId)?.session === session) {
        this.#oopifs.delete(targetInfo.targetId);
      }
      this.#contexts.delete(session);
    });
    debug(`iframe target attached: ${targetInfo.url}`);
  }
}
