import type {Protocol} from '../../protocol/index.js';
import type {Page} from '../browser/core/Page.js';
import type {CdpSession, SendOptions} from '../cdp/CdpConnection.js';
import {errorMessage} from '../util/async.js';
import {debug} from '../util/logger.js';
import type {FrameTarget} from './types.js';

/** How deep frames inside frames are followed. */
export const MAX_FRAME_DEPTH = 8;
const WORLD_NAME = 'cdp-mcp-snapshot';

function frameKey(session: CdpSession, frameId: string): string {
  return `${session.id}/${frameId}`;
}

/** A frame before its document is known: where to talk to it. */
export interface FramePlace {
  session: CdpSession;
  frameId: string;
  key: string;
}

/**
 * The frames one snapshot visits: each frame's session (out-of-process
 * iframes have their own), its current document's loaderId (uids are keyed
 * by it, as the reference keys them), and the content frame of an iframe
 * element, found as Puppeteer's contentFrame() finds it.
 */
export class SnapshotFrames {
  readonly #trees = new Map<CdpSession, Promise<Map<string, string>>>();
  /** Per session: each frame's child frames (from the same frame tree answer). */
  readonly #children = new Map<CdpSession, Map<string, string[]>>();

  /** `signal`: the snapshot's (engine.ts): every request carries it. */
  constructor(
    readonly page: Page,
    readonly signal: AbortSignal,
  ) {}

  /** The loaderId of every frame a session hosts (asked once per snapshot and session). */
  #loaders(session: CdpSession): Promise<Map<string, string>> {
    let tree = this.#trees.get(session);
    if (!tree) {
      // The bound of the page's answers (page.bounds: 30 s, or --pageCallTimeout): the renderer's main
      // thread answers in milliseconds, so it runs out only on a page whose scripts never yield, and
      // then it is what ends the snapshot (the AX tree asked alongside has a longer bound, for huge documents).
      tree = session
        .send('Page.getFrameTree', {}, {timeout: this.page.bounds.answerMs, signal: this.signal})
        .then(({frameTree}) => {
          const loaders = new Map<string, string>();
          const children = new Map<string, string[]>();
          const visit = (node: Protocol.Page.FrameTree) => {
            loaders.set(node.frame.id, node.frame.loaderId);
            children.set(
              node.frame.id,
              (node.childFrames ?? []).map(child => child.frame.id),
            );
            for (const child of node.childFrames ?? []) {
              visit(child);
            }
          };
          visit(frameTree);
          this.#children.set(session, children);
          return loaders;
        });
      this.#trees.set(session, tree);
    }
    return tree;
  }

  /** The frame with its current document; the frame tree is asked for alongside whatever `work` asks. */
  async target<T>(place: FramePlace, work: Promise<T>): Promise<{frame: FrameTarget; result: T}> {
    const [loaders, result] = await Promise.all([this.#loaders(place.session), work]);
    const loaderId = loaders.get(place.frameId);
    if (loaderId === undefined) {
      throw new Error(`Frame ${place.frameId} is gone`);
    }
    return {frame: {...place, loaderId}, result};
  }

  /**
   * The frames below a frame in its session's frame tree, with their
   * documents, as one string: it changes when a frame inside is added,
   * removed or navigated.
   */
  async framesBelow(place: FramePlace): Promise<string> {
    const loaders = await this.#loaders(place.session);
    const children = this.#children.get(place.session);
    const parts: string[] = [];
    const visit = (frameId: string) => {
      for (const child of children?.get(frameId) ?? []) {
        parts.push(`${child}:${loaders.get(child) ?? ''}`);
        visit(child);
      }
    };
    visit(place.frameId);
    return parts.join(',');
  }

  mainPlace(): FramePlace {
    const session = this.page.session;
    return {session, frameId: this.page.mainFrameId, key: frameKey(session, this.page.mainFrameId)};
  }

  /** The frame an iframe element shows, in whichever session hosts it; undefined when there is none. */
  async contentFrame(
    parent: FrameTarget,
    element: {backendNodeId: number} | {objectId: string},
  ): Promise<FramePlace | undefined> {
    try {
      const {node} = await parent.session.send('DOM.describeNode', element, {signal: this.signal});
      const frameId = node.frameId;
      if (!frameId) {
        return undefined;
      }
      const session = this.page.frames.oopif(frameId)?.session ?? parent.session;
      // A session whose frame tree this snapshot has not asked for (an out-of-process frame's):
      // the frame's first read asks for it alongside, and finds the frame gone if it is.
      if (this.#trees.has(session) && !(await this.#loaders(session)).has(frameId)) {
        // The frame appeared after this snapshot read the frame tree: read it again.
        this.#trees.delete(session);
        if (!(await this.#loaders(session)).has(frameId)) {
          return undefined;
        }
      }
      return {session, frameId, key: frameKey(session, frameId)};
    } catch (error) {
      debug('content frame lookup failed', errorMessage(error));
      return undefined;
    }
  }
}

/**
 * Our isolated world in each frame's current document, where the walker
 * runs: page scripts cannot see it or change the DOM methods it calls.
 * Kept across snapshots per frame; a navigation destroys it, and the next
 * evaluation in it fails and makes a new one.
 */
export class IsolatedWorlds {
  readonly #worlds = new Map<string, {contextId: Promise<number>}>();

  /** The world's context id; `options`: the bound and signal of the request that makes it, when it is made. */
  async context(frame: FramePlace, fresh = false, options?: SendOptions): Promise<number> {
    const known = this.#worlds.get(frame.key);
    if (known && !fresh) {
      return known.contextId;
    }
    const contextId = frame.session
      .send(
        'Page.createIsolatedWorld',
        {frameId: frame.frameId, worldName: WORLD_NAME, grantUniveralAccess: false},
        options,
      )
      .then(r => r.executionContextId);
    this.#worlds.set(frame.key, {contextId});
    contextId.catch(() => this.#worlds.delete(frame.key));
    return contextId;
  }

  /** Forgets the worlds of frames the latest snapshot did not visit (navigated away, detached). */
  retain(visited: ReadonlySet<string>): void {
    for (const key of this.#worlds.keys()) {
      if (!visited.has(key)) {
        this.#worlds.delete(key);
      }
    }
  }
}
