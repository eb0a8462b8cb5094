import {
  ElementGoneError,
  type ElementResolver,
  type ElementSummary,
  type Page,
  type ResolvedElement,
  staleElementError,
} from '../browser/core/Page.js';
import type {CdpSession} from '../cdp/CdpConnection.js';
import {errorMessage} from '../util/async.js';
import {captureTree, SnapshotEnv} from './engine.js';
import {type ExtraElement, insertExtraNodes} from './extraNodes.js';
import {linesText, type PrintedLine, printedLines} from './format.js';
import type {ElementRef, SnapNode} from './types.js';
import {type UidAssignment, UidRegistry} from './uids.js';

function isStaleContext(error: unknown): boolean {
  return /context|Target closed|target has closed|No node|Could not find node|detached|does not belong to the document/i.test(
    errorMessage(error),
  );
}

/** In the page: the host of the nearest closed shadow root the element is in, or null. */
const CLOSED_HOST = `function() {
  for (let root = this.getRootNode(); root instanceof ShadowRoot; root = root.host.getRootNode()) {
    if (root.mode === 'closed') return root.host;
  }
  return null;
}`;

/**
 * Whether the element is now in a closed shadow root it was not in when the
 * snapshot was taken: then it is not where the snapshot showed it (a page
 * hides it from script on purpose), and no action should reach it. Chrome's
 * tree lists closed roots' content under their hosts, so a node from it was
 * already inside when its snapshot ancestors hold that host; the in-page walk
 * never enters closed roots, so its nodes were outside.
 */
async function movedIntoClosedRoot(session: CdpSession, objectId: string, node: SnapNode): Promise<boolean> {
  const {result} = await session.send('Runtime.callFunctionOn', {objectId, functionDeclaration: CLOSED_HOST});
  if (result.subtype === 'null' || !result.objectId) {
    return false;
  }
  if (!node.axAncestors) {
    return true;
  }
  const {node: host} = await session.send('DOM.describeNode', {objectId: result.objectId});
  return !wasUnder(node, host.backendNodeId);
}

/** Whether the snapshot showed the node under the host with this backend node id (Chrome's tree only). */
function wasUnder(node: SnapNode, hostBackendNodeId: number): boolean {
  for (const ancestor of node.axAncestors?.() ?? []) {
    if (ancestor === hostBackendNodeId) {
      return true;
    }
  }
  return false;
}

/** The main-world object of a DOM node (text nodes stand for their element, as in the reference). */
async function mainWorldElement(session: CdpSession, backendNodeId: number): Promise<string | undefined> {
  const {object} = await session.send('DOM.resolveNode', {backendNodeId});
  if (!object.objectId) {
    return undefined;
  }
  if (object.subtype === 'node' && object.className !== 'Text') {
    return object.objectId;
  }
  const parent = await session.send('Runtime.callFunctionOn', {
    objectId: object.objectId,
    functionDeclaration:
      'function() { return this.nodeType === 3 ? (this.parentElement ?? this.parentNode?.host ?? null) : this; }',
  });
  return parent.result.objectId;
}

/** A uid that is not in the latest snapshot (never given, or its element is gone). */
export class UnknownUidError extends Error {
  constructor(
    readonly uid: string,
    message: string,
  ) {
    super(message);
  }
}

/** What a node looked like: its role and accessible name. */
export interface NodeLook {
  role: string;
  name: string;
}

/** How many resolved elements' objects are kept (all are forgotten past it). */
const OBJECTS_KEPT = 1_000;

/** How many uids of elements gone from the page we remember the look of. */
const GONE_KEPT = 5_000;

/** Per-page snapshot state: the latest tree, its uids, and uid → element resolution. */
export class SnapshotState implements ElementResolver {
  readonly #uids = new UidRegistry();
  readonly #env = new SnapshotEnv();
  #latest: UidAssignment | undefined;
  #lines: PrintedLine[] = [];
  #verbose = false;
  /** The main-world object of elements resolved before, by frame, document and backend node id. */
  readonly #objects = new Map<string, string>();
  /** The looks of nodes earlier snapshots showed and later ones did not, oldest first. */
  readonly #gone = new Map<string, NodeLook>();

  constructor(readonly page: Page) {}

  /**
   * Takes a new snapshot, makes it the page's current one and returns its
   * text; `extras` are elements it must show (insertExtraNodes). `signal`
   * (the call's) stops it: no request of it is sent after (engine.ts).
   */
  async capture(verbose: boolean, extras: readonly ExtraElement[] = [], signal?: AbortSignal): Promise<string> {
    const root = await captureTree(this.page, verbose, this.#env, signal);
    if (extras.length && root.ref) {
      insertExtraNodes(root, extras, root.ref.frame);
    }
    const assignment = this.#uids.assign(root);
    this.#rememberGone(assignment);
    this.#latest = assignment;
    this.#verbose = verbose;
    this.#lines = printedLines(root, node => assignment.uidOf.get(node) ?? '', verbose);
    return linesText(this.#lines);
  }

  #rememberGone(next: UidAssignment): void {
    for (const [uid, node] of this.#latest?.byUid ?? []) {
      if (!next.byUid.has(uid)) {
        this.#gone.delete(uid);
        this.#gone.set(uid, {role: node.role, name: node.name});
      }
    }
    for (const uid of this.#gone.keys()) {
      if (this.#gone.size <= GONE_KEPT) {
        break;
      }
      this.#gone.delete(uid);
    }
  }

  /** The role and name of the node a uid named, in the latest snapshot or an earlier one. */
  lookOf(uid: string): NodeLook | undefined {
    const node = this.#latest?.byUid.get(uid);
    return node ? {role: node.role, name: node.name} : this.#gone.get(uid);
  }

  /** Whether the latest snapshot was a verbose one (its uids include nodes a plain one leaves out). */
  get verbose(): boolean {
    return this.#verbose;
  }

  /** The printed lines of the latest snapshot (what its text shows). */
  get lines(): readonly PrintedLine[] {
    return this.#lines;
  }

  /** The snapshot node behind a uid (throws the unknown-uid error). */
  node(uid: string): SnapNode {
    const node = this.#latest?.byUid.get(uid);
    if (!node) {
      const older = /^(\d+)_\d+$/.exec(uid);
      const hint =
        older && this.#latest && Number(older[1]) < this.#latest.snapshotId
          ? ' It is from an older snapshot and is not on the page anymore: take a new snapshot for current uids.'
          : '';
      throw new UnknownUidError(uid, `Element uid "${uid}" not found on page ${this.page.id}.${hint}`);
    }
    return node;
  }

  describe(uid: string): ElementSummary {
    const node = this.node(uid);
    return {
      role: node.role,
      options: node.children.filter(c => c.role === 'option').map(c => ({name: c.name, uid: this.uidOf(c)})),
    };
  }

  /** The uid a node of the latest snapshot was printed with. */
  uidOf(node: SnapNode): string | undefined {
    return this.#latest?.uidOf.get(node);
  }

  uidForBackendNodeId(backendNodeId: number): string | undefined {
    for (const [node, uid] of this.#latest?.uidOf ?? []) {
      if (node.backendNodeId === backendNodeId) {
        return uid;
      }
    }
    return undefined;
  }

  locate(uid: string): {session: CdpSession; backendNodeId: number} | undefined {
    const ref = this.node(uid).ref;
    return ref && {session: ref.frame.session, backendNodeId: ref.backendNodeId};
  }

  movedIntoClosedRoot(uid: string, closedHost: number): boolean {
    return !wasUnder(this.node(uid), closedHost);
  }

  /**
   * The element of a uid, in the main world. Its object is kept per DOM node
   * and document: acting on the same element again skips DOM.resolveNode, and
   * the check that it did not move into a closed shadow root (made every time)
   * is what finds a kept object gone with its document or world. With
   * `checkAlongside`, that check is not waited for but left in `checking`
   * (asked alongside the caller's first question about the element).
   */
  async resolve(uid: string, {checkAlongside = false}: {checkAlongside?: boolean} = {}): Promise<ResolvedElement> {
    const node = this.node(uid);
    const ref = node.ref;
    if (!ref) {
      throw staleElementError(uid);
    }
    const key = `${ref.frame.key}/${ref.frame.loaderId}/${ref.backendNodeId}`;
    const kept = this.#objects.get(key);
    if (kept !== undefined && checkAlongside) {
      return this.#alongside(uid, node, ref, kept, key);
    }
    if (kept !== undefined) {
      try {
        return await this.#checked(uid, node, ref, kept);
      } catch (error) {
        // Gone with its world or document: resolved again below, as a first time.
        this.#objects.delete(key);
        if (error instanceof ElementGoneError || !/Could not find object|context/i.test(errorMessage(error))) {
          throw staleIfLost(uid, error);
        }
      }
    }
    try {
      const objectId = await mainWorldElement(ref.frame.session, ref.backendNodeId);
      if (!objectId) {
        throw staleElementError(uid);
      }
      if (this.#objects.size >= OBJECTS_KEPT) {
        this.#objects.clear();
      }
      this.#objects.set(key, objectId);
      return checkAlongside
        ? this.#alongside(uid, node, ref, objectId, key)
        : await this.#checked(uid, node, ref, objectId);
    } catch (error) {
      this.#objects.delete(key);
      throw staleIfLost(uid, error);
    }
  }

  /** The element with its closed-shadow-root check running (a failure of it forgets the kept object). */
  #alongside(uid: string, node: SnapNode, ref: ElementRef, objectId: string, key: string): ResolvedElement {
    const checking = this.#checked(uid, node, ref, objectId).then(
      () => undefined,
      (error: unknown) => {
        this.#objects.delete(key);
        throw staleIfLost(uid, error);
      },
    );
    // Whoever acts on the element waits for it; a caller that fails before then leaves it unread.
    checking.catch(() => undefined);
    return {session: ref.frame.session, objectId, backendNodeId: ref.backendNodeId, frameId: ref.frame.key, checking};
  }

  /** The element, unless it moved into a closed shadow root since the snapshot. */
  async #checked(uid: string, node: SnapNode, ref: ElementRef, objectId: string): Promise<ResolvedElement> {
    if (await movedIntoClosedRoot(ref.frame.session, objectId, node)) {
      throw new ElementGoneError(uid, 'moved');
    }
    return {session: ref.frame.session, objectId, backendNodeId: ref.backendNodeId, frameId: ref.frame.key};
  }
}

/** A failure to resolve a uid: a lost document or node is a stale uid. */
function staleIfLost(uid: string, error: unknown): unknown {
  return !(error instanceof ElementGoneError) && isStaleContext(error) ? staleElementError(uid, error) : error;
}

declare module '../browser/core/Page.js' {
  interface PageSlots {
    snapshot?: SnapshotState;
  }
}

/** The snapshot state of a page (created on first use). */
export function snapshotState(page: Page): SnapshotState {
  return (page.slots.snapshot ??= new SnapshotState(page));
}

/**
 * Takes a snapshot of the page (showing `extras` too) and makes its uids the
 * ones tools resolve; `signal` (the call's) stops it.
 */
export async function capturePageSnapshot(
  page: Page,
  verbose: boolean,
  extras?: readonly ExtraElement[],
  signal?: AbortSignal,
): Promise<string> {
  const state = snapshotState(page);
  const text = await state.capture(verbose, extras, signal);
  page.elements = state;
  return text;
}
