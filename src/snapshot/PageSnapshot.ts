import {exceptionMessage} from '../browser/exceptions.js';
import {
  type ElementResolver,
  type ElementSummary,
  type Page,
  type ResolvedElement,
  staleElementError,
} from '../browser/Page.js';
import type {CdpSession} from '../cdp/CdpConnection.js';
import {errorMessage} from '../util/async.js';
import {debug} from '../util/logger.js';
import {type AgentNode, type AgentSnapshot, installSnapshotAgent} from './agent.js';
import {type AxItem, convertAxTree, linkAxTree} from './axTree.js';
import {formatSnapshot, walkPrinted} from './format.js';
import type {AgentTarget, ElementRef, SnapNode} from './types.js';

const AGENT = "globalThis[Symbol.for('cdp-mcp.snapshot')]";
const AGENT_SOURCE = `(${installSnapshotAgent.toString()})()`;
/** Bound of one frame's snapshot; big pages take a few hundred ms. */
const SNAPSHOT_TIMEOUT_MS = 30_000;
/** Bound of a full AX tree fetch (verbose mode); Chrome is slow on big pages. */
const AX_TREE_TIMEOUT_MS = 120_000;

/** Process-wide snapshot counter: the first part of every uid. */
let nextSnapshotId = 1;

/**
 * How snapshots are built: `fast` (default) computes roles and names in the
 * page; `ax` builds them from Chrome's accessibility tree for every snapshot
 * (slow on big pages; kept as a reference and for troubleshooting).
 */
function engine(): 'fast' | 'ax' {
  return process.env['CDP_MCP_SNAPSHOT_ENGINE'] === 'ax' ? 'ax' : 'fast';
}

function isStaleContext(error: unknown): boolean {
  return /context|Target closed|target has closed|No node|Could not find node|detached/i.test(errorMessage(error));
}

/** Runs the agent in a frame (installing it first when the document has none yet). */
async function runAgent(target: AgentTarget): Promise<AgentSnapshot> {
  const params = (expression: string) => ({
    expression,
    returnByValue: true,
    ...(target.contextId !== undefined ? {contextId: target.contextId} : {}),
  });
  let response = await target.session.send(
    'Runtime.evaluate',
    params(`${AGENT}?.snapshot() ?? null`),
    SNAPSHOT_TIMEOUT_MS,
  );
  if (!response.exceptionDetails && (response.result.value === null || response.result.value === undefined)) {
    response = await target.session.send(
      'Runtime.evaluate',
      params(`${AGENT_SOURCE}; ${AGENT}.snapshot()`),
      SNAPSHOT_TIMEOUT_MS,
    );
  }
  if (response.exceptionDetails) {
    throw new Error(`Could not read the page content: ${exceptionMessage(response.exceptionDetails)}`);
  }
  return response.result.value as AgentSnapshot;
}

/** A remote object id for the agent node `id` in `target`, or undefined when it is gone. */
async function agentElement(target: AgentTarget, id: number): Promise<string | undefined> {
  const response = await target.session.send('Runtime.evaluate', {
    expression: `${AGENT}?.get(${id}) ?? null`,
    ...(target.contextId !== undefined ? {contextId: target.contextId} : {}),
  });
  if (response.exceptionDetails || response.result.subtype === 'null' || !response.result.objectId) {
    return undefined;
  }
  return response.result.objectId;
}

/** Which document (of those the agent walked) the node belongs to: same-origin frames differ. */
async function agentDocument(target: AgentTarget, id: number): Promise<number> {
  const response = await target.session.trySend('Runtime.evaluate', {
    expression: `${AGENT}?.docOf(${id}) ?? 0`,
    returnByValue: true,
    ...(target.contextId !== undefined ? {contextId: target.contextId} : {}),
  });
  return typeof response?.result.value === 'number' ? response.result.value : 0;
}

/** Per-page snapshot state: the latest tree, its uids, and uid → element resolution. */
export class SnapshotState implements ElementResolver {
  readonly #keyToUid = new Map<string, string>();
  #uidToNode = new Map<string, SnapNode>();
  #nodeToUid = new Map<SnapNode, string>();
  #snapshotId = 0;

  constructor(readonly page: Page) {}

  /** Takes a new snapshot, makes it the page's current one and returns its text. */
  async capture(verbose: boolean): Promise<string> {
    const root = verbose || engine() === 'ax' ? await this.#captureAx(verbose) : await this.#captureFast();
    const snapshotId = nextSnapshotId++;
    let counter = 0;
    const seen = new Set<string>();
    const uids = new Map<SnapNode, string>();
    const uidToNode = new Map<string, SnapNode>();
    walkPrinted(root, verbose, node => {
      let uid = node.key !== undefined ? this.#keyToUid.get(node.key) : undefined;
      if (uid === undefined || uidToNode.has(uid)) {
        uid = `${snapshotId}_${counter++}`;
        if (node.key !== undefined) {
          this.#keyToUid.set(node.key, uid);
        }
      }
      if (node.key !== undefined) {
        seen.add(node.key);
      }
      uids.set(node, uid);
      uidToNode.set(uid, node);
    });
    for (const key of this.#keyToUid.keys()) {
      if (!seen.has(key)) {
        this.#keyToUid.delete(key);
      }
    }
    this.#uidToNode = uidToNode;
    this.#nodeToUid = uids;
    this.#snapshotId = snapshotId;
    return formatSnapshot(root, node => uids.get(node) ?? '', verbose);
  }

  /** The snapshot node behind a uid (throws the same errors as resolve). */
  node(uid: string): SnapNode {
    const node = this.#uidToNode.get(uid);
    if (!node) {
      const older = /^(\d+)_\d+$/.exec(uid);
      const hint =
        older && Number(older[1]) < this.#snapshotId
          ? ' It is from an older snapshot and is not on the page anymore: take a new snapshot for current uids.'
          : '';
      throw new Error(`Element uid "${uid}" not found on page ${this.page.id}.${hint}`);
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
    return this.#nodeToUid.get(node);
  }

  async resolve(uid: string): Promise<ResolvedElement> {
    const node = this.node(uid);
    const stale = () => staleElementError(uid);
    const ref = node.ref;
    if (!ref) {
      throw stale();
    }
    try {
      if (ref.kind === 'agent') {
        const [objectId, doc] = await Promise.all([
          agentElement(ref.target, ref.id),
          agentDocument(ref.target, ref.id),
        ]);
        if (!objectId) {
          throw stale();
        }
        return {session: ref.target.session, objectId, frameId: `${ref.frameKey}#${doc}`};
      }
      const {object} = await ref.session.send('DOM.resolveNode', {backendNodeId: ref.backendNodeId});
      if (!object.objectId) {
        throw stale();
      }
      let objectId = object.objectId;
      if (object.subtype !== 'node' || object.className === 'Text') {
        const parent = await ref.session.send('Runtime.callFunctionOn', {
          objectId,
          functionDeclaration:
            'function() { return this.nodeType === 3 ? (this.parentElement ?? this.parentNode?.host ?? null) : this; }',
        });
        if (!parent.result.objectId) {
          throw stale();
        }
        objectId = parent.result.objectId;
      }
      return {session: ref.session, objectId, backendNodeId: ref.backendNodeId, frameId: ref.frameKey};
    } catch (error) {
      if (error instanceof Error && error.message === stale().message) {
        throw error;
      }
      if (isStaleContext(error)) {
        throw staleElementError(uid, error);
      }
      throw error;
    }
  }

  // ---------------------------------------------------------------- fast path

  async #captureFast(): Promise<SnapNode> {
    const main: AgentTarget = {session: this.page.session, contextId: undefined, frameId: this.page.mainFrameId};
    return this.#frameTree(main, 0);
  }

  async #frameTree(target: AgentTarget, depth: number): Promise<SnapNode> {
    const {token, root} = await runAgent(target);
    const frameKey = `${target.session.id}/${target.frameId}/${token}`;
    const pending: Array<Promise<void>> = [];
    const convert = (a: AgentNode): SnapNode => {
      const ref: ElementRef = {kind: 'agent', target, id: a.i, frameKey};
      const node: SnapNode = {role: a.r, name: a.n, props: a.p ?? {}, children: [], key: `${token}:${a.i}`, ref};
      if (a.c) {
        node.children = a.c.map(convert);
      }
      if (a.f && depth < 8) {
        pending.push(this.#attachChildFrame(node, target, a.i, depth));
      }
      if (a.o) {
        pending.push(this.#expandOpaque(node, target, a.i, token, frameKey));
      }
      return node;
    };
    const tree = convert(root);
    await Promise.all(pending);
    return tree;
  }

  /** Snapshots the document of a frame the agent could not enter and hangs it under the Iframe node. */
  async #attachChildFrame(node: SnapNode, parent: AgentTarget, id: number, depth: number): Promise<void> {
    try {
      const objectId = await agentElement(parent, id);
      if (!objectId) {
        return;
      }
      const {node: described} = await parent.session.send('DOM.describeNode', {objectId});
      const frameId = described.frameId;
      if (!frameId) {
        return;
      }
      const oopif = this.page.frames.oopif(frameId);
      let child: AgentTarget | undefined;
      if (oopif) {
        child = {session: oopif.session, contextId: undefined, frameId};
      } else {
        const contextId = this.page.frames.contextOf(parent.session, frameId);
        if (contextId !== undefined) {
          child = {session: parent.session, contextId, frameId};
        }
      }
      if (child) {
        node.children.push(await this.#frameTree(child, depth + 1));
      }
    } catch (error) {
      debug('child frame snapshot failed', errorMessage(error));
    }
  }

  /** Replaces a widget whose insides only Chrome sees (date input, media controls) by its AX subtree. */
  async #expandOpaque(node: SnapNode, target: AgentTarget, id: number, token: string, frameKey: string): Promise<void> {
    try {
      const objectId = await agentElement(target, id);
      if (!objectId) {
        return;
      }
      const {nodes} = await target.session.send('Accessibility.queryAXTree', {objectId});
      const {root} = linkAxTree(nodes);
      if (!root) {
        return;
      }
      const converted = convertAxTree(root, {
        interestingOnly: true,
        shell: item => this.#axShell(item, target.session, frameKey, `${token}:ax`),
      });
      const first = converted[0];
      if (converted.length === 1 && first && first.role === root.role) {
        node.role = first.role;
        node.name = first.name;
        node.props = first.props;
        node.children = first.children;
      } else {
        node.children = converted;
      }
    } catch (error) {
      debug('widget AX subtree failed', errorMessage(error));
    }
  }

  #axShell(item: AxItem, session: CdpSession, frameKey: string, keyPrefix: string): Pick<SnapNode, 'key' | 'ref'> {
    const backendNodeId = item.payload.backendDOMNodeId;
    if (backendNodeId === undefined) {
      return {key: undefined, ref: undefined};
    }
    return {key: `${keyPrefix}:${backendNodeId}`, ref: {kind: 'backend', session, backendNodeId, frameKey}};
  }

  // ---------------------------------------------------------------- AX tree path

  async #captureAx(verbose: boolean): Promise<SnapNode> {
    const root = await this.#axFrame(this.page.session, undefined, !verbose, 0);
    if (!root) {
      throw new Error('Failed to create accessibility snapshot');
    }
    return root;
  }

  async #axFrame(
    session: CdpSession,
    frameId: string | undefined,
    interestingOnly: boolean,
    depth: number,
  ): Promise<SnapNode | undefined> {
    const {nodes} = await session.send('Accessibility.getFullAXTree', frameId ? {frameId} : {}, AX_TREE_TIMEOUT_MS);
    const {root, items} = linkAxTree(nodes);
    if (!root) {
      return undefined;
    }
    const frameKey = `${session.id}/${frameId ?? 'main'}`;
    if (depth < 8) {
      await Promise.all(
        items
          .filter(item => item.role === 'Iframe' && item.payload.backendDOMNodeId !== undefined)
          .map(async item => {
            try {
              const {node} = await session.send('DOM.describeNode', {backendNodeId: item.payload.backendDOMNodeId});
              if (!node.frameId) {
                return;
              }
              const oopif = this.page.frames.oopif(node.frameId);
              item.frameRoot = oopif
                ? await this.#axFrame(oopif.session, undefined, interestingOnly, depth + 1)
                : await this.#axFrame(session, node.frameId, interestingOnly, depth + 1);
            } catch (error) {
              debug('child frame AX tree failed', errorMessage(error));
            }
          }),
      );
    }
    const prefix = `ax:${session.id}`;
    return convertAxTree(root, {interestingOnly, shell: item => this.#axShell(item, session, frameKey, prefix)})[0];
  }
}

const states = new WeakMap<Page, SnapshotState>();

/** The snapshot state of a page (created on first use). */
export function snapshotState(page: Page): SnapshotState {
  let state = states.get(page);
  if (!state) {
    state = new SnapshotState(page);
    states.set(page, state);
  }
  return state;
}

/** Takes a snapshot of the page and makes its uids the ones tools resolve. */
export async function takeSnapshot(page: Page, verbose: boolean): Promise<string> {
  const state = snapshotState(page);
  const text = await state.capture(verbose);
  page.elements = state;
  return text;
}
