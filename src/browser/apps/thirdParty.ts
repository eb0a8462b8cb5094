/**
 * Third-party developer tools a page offers (`--categoryExperimentalThirdParty`):
 * discovery only when the page listens for `devtoolstooldiscovery` (checked
 * without running page code), groups cached per page for execution.
 */

import type {Protocol} from '../../../protocol/index.js';
import {PageQuoteError} from '../../util/pageQuote.js';
import type {Page} from '../core/Page.js';
import {exceptionMessage} from '../script/exceptions.js';
import {ANCESTORS_OF, DISCOVER_TOOLS, EXECUTE_TOOL} from './thirdPartyPage.js';

/** Bound on discovery and on one tool run. */
const DISCOVERY_TIMEOUT_MS = 10_000;
const EXECUTE_TIMEOUT_MS = 60_000;

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

async function listensForDiscovery(page: Page): Promise<boolean> {
  const {result} = await page.session.send('Runtime.evaluate', {expression: 'window'}, DISCOVERY_TIMEOUT_MS);
  if (!result.objectId) {
    return false;
  }
  try {
    const {listeners} = await page.session.send(
      'DOMDebugger.getEventListeners',
      {objectId: result.objectId},
      DISCOVERY_TIMEOUT_MS,
    );
    return listeners.some(listener => listener.type === 'devtoolstooldiscovery');
  } finally {
    await page.session.trySend('Runtime.releaseObject', {objectId: result.objectId});
  }
}

/** Asks the page for its tool groups (none when it does not listen for discovery). */
export async function discoverThirdPartyTools(page: Page): Promise<ThirdPartyGroup[]> {
  let groups: ThirdPartyGroup[] = [];
  if (await listensForDiscovery(page)) {
    const {result, exceptionDetails} = await page.session.send(
      'Runtime.evaluate',
      {expression: DISCOVER_TOOLS, awaitPromise: true, returnByValue: true},
      DISCOVERY_TIMEOUT_MS,
    );
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
async function arrayItems(page: Page, objectId: string): Promise<Map<number, Protocol.Runtime.RemoteObject>> {
  const {result} = await page.session.send(
    'Runtime.getProperties',
    {objectId, ownProperties: true},
    DISCOVERY_TIMEOUT_MS,
  );
  const items = new Map<number, Protocol.Runtime.RemoteObject>();
  for (const property of result) {
    if (/^\d+$/.test(property.name) && property.value) {
      items.set(Number(property.name), property.value);
    }
  }
  return items;
}

async function describeReturned(page: Page, objectId: string): Promise<ReturnedElement> {
  const send = page.session.send.bind(page.session);
  const [{node}, chain] = await Promise.all([
    send('DOM.describeNode', {objectId, depth: -1, pierce: true}, DISCOVERY_TIMEOUT_MS),
    send(
      'Runtime.callFunctionOn',
      {objectId, functionDeclaration: ANCESTORS_OF, objectGroup: OBJECT_GROUP},
      DISCOVERY_TIMEOUT_MS,
    ),
  ]);
  const ancestorObjects = chain.result.objectId ? [...(await arrayItems(page, chain.result.objectId))] : [];
  const ancestors = await Promise.all(
    ancestorObjects
      .sort(([a], [b]) => a - b)
      .map(async ([, value]) =>
        value.objectId
          ? (await send('DOM.describeNode', {objectId: value.objectId}, DISCOVERY_TIMEOUT_MS)).node.backendNodeId
          : 0,
      ),
  );
  const descendants = new Set<number>();
  collectDescendants(node, descendants);
  return {backendNodeId: node.backendNodeId, localName: node.localName, ancestors, descendants};
}

/**
 * Runs the page's tool; parameters that are `{uid}` reach it as the elements.
 * Returns its result as JSON text, the elements in it described for a snapshot.
 */
export async function executeThirdPartyTool(
  page: Page,
  name: string,
  params: Record<string, unknown>,
): Promise<ThirdPartyResult> {
  const elementKeys = Object.keys(params).filter(key => isUid(params[key]));
  const plainArgs = Object.fromEntries(Object.entries(params).filter(([key]) => !elementKeys.includes(key)));
  const marker = `cdpMcpElement-${crypto.randomUUID()}`;
  try {
    const {target, elementIds} = await toolTarget(
      page,
      elementKeys.map(key => (params[key] as {uid: string}).uid),
    );
    const {result, exceptionDetails} = await page.session.send(
      'Runtime.callFunctionOn',
      {
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
      },
      EXECUTE_TIMEOUT_MS,
    );
    if (exceptionDetails) {
      throw new PageQuoteError(exceptionMessage(exceptionDetails));
    }
    return {...(await returnedValue(page, result.objectId)), marker};
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
async function toolTarget(page: Page, uids: string[]): Promise<{target: string; elementIds: string[]}> {
  if (uids.length) {
    const {session, objectIds} = await page.resolveElementsForEvaluation(uids);
    if (session !== page.session) {
      throw new Error('Elements passed to a page tool must be in the main frame, not in an iframe.');
    }
    return {target: objectIds[0] ?? '', elementIds: objectIds};
  }
  const {result} = await page.session.send(
    'Runtime.evaluate',
    {expression: 'window', objectGroup: OBJECT_GROUP},
    DISCOVERY_TIMEOUT_MS,
  );
  return {target: result.objectId ?? '', elementIds: []};
}

/** The page script's answer: `[json, ...elements]`, the elements described for a snapshot. */
async function returnedValue(
  page: Page,
  objectId: string | undefined,
): Promise<{json: string | undefined; elements: ReturnedElement[]}> {
  const items = objectId ? await arrayItems(page, objectId) : new Map<number, Protocol.Runtime.RemoteObject>();
  const text: unknown = items.get(0)?.value;
  const elements: ReturnedElement[] = [];
  for (let i = 1; items.has(i); i++) {
    const element = items.get(i)?.objectId;
    if (element) {
      elements.push(await describeReturned(page, element));
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
