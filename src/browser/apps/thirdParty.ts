/**
 * Third-party developer tools a page offers (`--categoryExperimentalThirdParty`):
 * discovery only when the page listens for `devtoolstooldiscovery` (checked
 * without running page code), groups cached per page for execution.
 */

import type {CdpCommand, CdpParams, CdpResult, Protocol} from '../../../protocol/index.js';
import {errorMessage, following} from '../../util/async.js';
import {debug} from '../../util/logger.js';
import {PageQuoteError} from '../../util/pageQuote.js';
import type {Page} from '../core/Page.js';
import {exceptionMessage} from '../script/exceptions.js';
import {ANCESTORS_OF, DISCOVER_TOOLS, EXECUTE_TOOL} from './thirdPartyPage.js';

/** Bound on discovery's questions (the page's answers: --pageCallTimeout when shorter). */
const DISCOVERY_TIMEOUT_MS = 10_000;

/**
 * The page's session as one discovery or tool run asks it: every request
 * carries one signal, which aborts when the call's does (cancelled, or the
 * dialog/crash guard gave up on the page) or when the run fails (a request
 * ran out of time, the page threw): from then on none of its requests is
 * sent and those in flight are dropped; only the release of its objects
 * still goes out (`release`). As a snapshot's (snapshot/engine.ts).
 */
class PageAsk {
  readonly #stop: AbortController;
  readonly #unfollow: () => void;

  constructor(
    readonly page: Page,
    signal: AbortSignal | undefined,
  ) {
    ({stop: this.#stop, unfollow: this.#unfollow} = following(signal));
  }

  /** A question the page answers at once (DISCOVERY_TIMEOUT_MS, or --pageCallTimeout when shorter). */
  send<M extends CdpCommand>(method: M, params: CdpParams<M>): Promise<CdpResult<M>> {
    const timeout = Math.min(DISCOVERY_TIMEOUT_MS, this.page.bounds.answerMs);
    return this.page.session.send(method, params, {timeout, signal: this.#stop.signal});
  }

  /** Work the page does for the call (a tool's run): the bound of a script run (60 s, or --pageCallTimeout). */
  work<M extends CdpCommand>(method: M, params: CdpParams<M>): Promise<CdpResult<M>> {
    return this.page.session.send(method, params, {timeout: this.page.bounds.workMs, signal: this.#stop.signal});
  }

  /** Runs `body` (`what` it does, for the log) with this ask; a failure stops every request of it still in flight. */
  async run<T>(what: string, body: (ask: this) => Promise<T>): Promise<T> {
    try {
      return await body(this);
    } catch (error) {
      this.#stop.abort();
      debug(`third-party ${what} on page ${this.page.id} stopped: ${errorMessage(error)}`);
      throw error;
    } finally {
      this.#unfollow();
    }
  }
}

export interface ThirdPartyTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ThirdPartyGroup {
  name: string;
  description?: string;
  tools: ThirdPartyTool[];
}

declare module '../core/Page.js' {
  interface PageSlots {
    /** The last discovery on the page (execution looks tools up here). */
    thirdPartyTools?: ThirdPartyGroup[];
  }
}

/** Parameters marked as elements take a snapshot uid: `{uid: "…"}`. */
function withElementParams(schema: unknown): unknown {
  if (Array.isArray(schema)) {
    return schema.map(withElementParams);
  }
  if (!schema || typeof schema !== 'object') {
    return schema;
  }
  const out: Record<string, unknown> = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, withElementParams(value)]),
  );
  if (out['x-mcp-type'] === 'HTMLElement') {
    out['properties'] = {uid: {type: 'string'}};
    out['required'] = ['uid'];
  }
  return out;
}

async function listensForDiscovery(ask: PageAsk): Promise<boolean> {
  const {result} = await ask.send('Runtime.evaluate', {expression: 'window'});
  if (!result.objectId) {
    return false;
  }
  try {
    const {listeners} = await ask.send('DOMDebugger.getEventListeners', {objectId: result.objectId});
    return listeners.some(listener => listener.type === 'devtoolstooldiscovery');
  } finally {
    await ask.page.session.trySend('Runtime.releaseObject', {objectId: result.objectId});
  }
}

/**
 * Asks the page for its tool groups (none when it does not listen for
 * discovery). `signal` (the call's) stops it: no request of it is sent after.
 */
export function discoverThirdPartyTools(page: Page, signal?: AbortSignal): Promise<ThirdPartyGroup[]> {
  return new PageAsk(page, signal).run('tool discovery', discover);
}

async function discover(ask: PageAsk): Promise<ThirdPartyGroup[]> {
  const {page} = ask;
  let groups: ThirdPartyGroup[] = [];
  if (await listensForDiscovery(ask)) {
    const {result, exceptionDetails} = await ask.send('Runtime.evaluate', {
      expression: DISCOVER_TOOLS,
      awaitPromise: true,
      returnByValue: true,
    });
    if (exceptionDetails) {
      throw new PageQuoteError(`The page's tool discovery failed: ${exceptionMessage(exceptionDetails)}`);
    }
    groups = (result.value as ThirdPartyGroup[]).map(group => ({
      ...group,
      tools: group.tools.map(tool => ({
        ...tool,
        inputSchema: withElementParams(tool.inputSchema) as ThirdPartyTool['inputSchema'],
      })),
    }));
  }
  page.slots.thirdPartyTools = groups;
  return groups;
}

/** The tool by name from the page's last discovery; throws `Tool <name> not found`. */
export function findThirdPartyTool(page: Page, name: string): ThirdPartyTool {
  for (const group of page.slots.thirdPartyTools ?? []) {
    const tool = group.tools.find(t => t.name === name);
    if (tool) {
      return tool;
    }
  }
  throw new Error(`Tool ${name} not found`);
}

/** An element a tool returned, with what a snapshot needs to place it. */
export interface ReturnedElement {
  backendNodeId: number;
  localName: string;
  /** Its ancestor elements, nearest first. */
  ancestors: number[];
  /** Every node inside it (shadow trees and frame documents included). */
  descendants: Set<number>;
}

/** A tool's result: JSON text in which `{[marker]: i}` stands for `elements[i]`. */
export interface ThirdPartyResult {
  json: string | undefined;
  marker: string;
  elements: ReturnedElement[];
}

/** The objects a run holds in the page, released together when it is done. */
const OBJECT_GROUP = 'cdp-mcp-3p-tool';

type Described = Protocol.DOM.Node;

function collectDescendants(node: Described, into: Set<number>): void {
  for (const child of [...(node.children ?? []), ...(node.shadowRoots ?? []), ...(node.pseudoElements ?? [])]) {
    into.add(child.backendNodeId);
    collectDescendants(child, into);
  }
  if (node.contentDocument) {
    into.add(node.contentDocument.backendNodeId);
    collectDescendants(node.contentDocument, into);
  }
}

/** Own array elements of a remote array, by index. */
async function arrayItems(ask: PageAsk, objectId: string): Promise<Map<number, Protocol.Runtime.RemoteObject>> {
  const {result} = await ask.send('Runtime.getProperties', {objectId, ownProperties: true});
  const items = new Map<number, Protocol.Runtime.RemoteObject>();
  for (const property of result) {
    if (/^\d+$/.test(property.name) && property.value) {
      items.set(Number(property.name), property.value);
    }
  }
  return items;
}

async function describeReturned(ask: PageAsk, objectId: string): Promise<ReturnedElement> {
  const [{node}, chain] = await Promise.all([
    ask.send('DOM.describeNode', {objectId, depth: -1, pierce: true}),
    ask.send('Runtime.callFunctionOn', {objectId, functionDeclaration: ANCESTORS_OF, objectGroup: OBJECT_GROUP}),
  ]);
  const ancestorObjects = chain.result.objectId ? [...(await arrayItems(ask, chain.result.objectId))] : [];
  const ancestors = await Promise.all(
    ancestorObjects
      .sort(([a], [b]) => a - b)
      .map(async ([, value]) =>
        value.objectId ? (await ask.send('DOM.describeNode', {objectId: value.objectId})).node.backendNodeId : 0,
      ),
  );
  const descendants = new Set<number>();
  collectDescendants(node, descendants);
  return {backendNodeId: node.backendNodeId, localName: node.localName, ancestors, descendants};
}

/**
 * Runs the page's tool; parameters that are `{uid}` reach it as the elements.
 * Returns its result as JSON text, the elements in it described for a
 * snapshot. `signal` (the call's) stops it: no request of it is sent after
 * but the release of its objects (the tool's own run may go on in the page).
 */
export function executeThirdPartyTool(
  page: Page,
  name: string,
  params: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<ThirdPartyResult> {
  return new PageAsk(page, signal).run('tool run', ask => execute(ask, name, params));
}

async function execute(ask: PageAsk, name: string, params: Record<string, unknown>): Promise<ThirdPartyResult> {
  const {page} = ask;
  const elementKeys = Object.keys(params).filter(key => isUid(params[key]));
  const plainArgs = Object.fromEntries(Object.entries(params).filter(([key]) => !elementKeys.includes(key)));
  const marker = `cdpMcpElement-${crypto.randomUUID()}`;
  try {
    const {target, elementIds} = await toolTarget(
      ask,
      elementKeys.map(key => (params[key] as {uid: string}).uid),
    );
    const {result, exceptionDetails} = await ask.work('Runtime.callFunctionOn', {
      functionDeclaration: EXECUTE_TOOL,
      objectId: target,
      arguments: [
        {value: name},
        {value: plainArgs},
        {value: elementKeys},
        {value: marker},
        ...elementIds.map(objectId => ({objectId})),
      ],
      awaitPromise: true,
      objectGroup: OBJECT_GROUP,
    });
    if (exceptionDetails) {
      throw new PageQuoteError(exceptionMessage(exceptionDetails));
    }
    return {...(await returnedValue(ask, result.objectId)), marker};
  } finally {
    await page.session.trySend('Runtime.releaseObjectGroup', {objectGroup: OBJECT_GROUP});
  }
}

/** A parameter given as `{uid}`: an element of the latest snapshot. */
function isUid(value: unknown): value is {uid: string} {
  return (
    !!value &&
    typeof value === 'object' &&
    Object.keys(value).length === 1 &&
    typeof (value as {uid?: unknown}).uid === 'string'
  );
}

/**
 * What the tool runs on: the elements the uids name (the first one is
 * `this`; all must be in the main frame), or the page's window when there are none.
 */
async function toolTarget(ask: PageAsk, uids: string[]): Promise<{target: string; elementIds: string[]}> {
  const {page} = ask;
  if (uids.length) {
    const {session, objectIds} = await page.resolveElementsForEvaluation(uids);
    if (session !== page.session) {
      throw new Error('Elements passed to a page tool must be in the main frame, not in an iframe.');
    }
    return {target: objectIds[0] ?? '', elementIds: objectIds};
  }
  const {result} = await ask.send('Runtime.evaluate', {expression: 'window', objectGroup: OBJECT_GROUP});
  return {target: result.objectId ?? '', elementIds: []};
}

/** The page script's answer: `[json, ...elements]`, the elements described for a snapshot. */
async function returnedValue(
  ask: PageAsk,
  objectId: string | undefined,
): Promise<{json: string | undefined; elements: ReturnedElement[]}> {
  const items = objectId ? await arrayItems(ask, objectId) : new Map<number, Protocol.Runtime.RemoteObject>();
  const text: unknown = items.get(0)?.value;
  const elements: ReturnedElement[] = [];
  for (let i = 1; items.has(i); i++) {
    const element = items.get(i)?.objectId;
    if (element) {
      elements.push(await describeReturned(ask, element));
    }
  }
  return {json: typeof text === 'string' ? text : undefined, elements};
}

/**
 * The result with each element marker replaced by `{uid}` (the element's uid
 * in the snapshot taken for the answer); `uids[i]` is the i-th element's.
 */
export function withElementUids(value: unknown, marker: string, uids: ReadonlyArray<string | undefined>): unknown {
  if (Array.isArray(value)) {
    return value.map(item => withElementUids(item, marker, uids));
  }
  if (!value || typeof value !== 'object') {
    return value;
  }
  const entries = Object.entries(value);
  const [only] = entries;
  if (entries.length === 1 && only?.[0] === marker && typeof only[1] === 'number') {
    return {uid: uids[only[1]] ?? `stashed-${only[1]}`};
  }
  return Object.fromEntries(entries.map(([key, item]) => [key, withElementUids(item, marker, uids)]));
}
