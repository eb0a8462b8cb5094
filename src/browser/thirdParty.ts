/**
 * Third-party developer tools a page offers (`--categoryExperimentalThirdParty`):
 * discovery only when the page listens for `devtoolstooldiscovery` (checked
 * without running page code), groups cached per page for execution.
 */
import {exceptionMessage} from './exceptions.js';
import type {Page} from './Page.js';
import {DISCOVER_TOOLS, EXECUTE_TOOL} from './thirdPartyPage.js';

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

/** The last discovery of each page (execution looks tools up here). */
const cache = new WeakMap<Page, ThirdPartyGroup[]>();

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
      throw new Error(`The page's tool discovery failed: ${exceptionMessage(exceptionDetails)}`);
    }
    groups = (result.value as ThirdPartyGroup[]).map(group => ({
      ...group,
      tools: group.tools.map(tool => ({
        ...tool,
        inputSchema: withElementParams(tool.inputSchema) as ThirdPartyTool['inputSchema'],
      })),
    }));
  }
  cache.set(page, groups);
  return groups;
}

/** The tool by name from the page's last discovery; throws `Tool <name> not found`. */
export function findThirdPartyTool(page: Page, name: string): ThirdPartyTool {
  for (const group of cache.get(page) ?? []) {
    const tool = group.tools.find(t => t.name === name);
    if (tool) {
      return tool;
    }
  }
  throw new Error(`Tool ${name} not found`);
}

/** Runs the page's tool; parameters that are `{uid}` reach it as the elements. Returns its result as JSON text. */
export async function executeThirdPartyTool(
  page: Page,
  name: string,
  params: Record<string, unknown>,
): Promise<string | undefined> {
  const isUid = (value: unknown): value is {uid: string} =>
    !!value &&
    typeof value === 'object' &&
    Object.keys(value).length === 1 &&
    typeof (value as {uid?: unknown}).uid === 'string';
  const elementKeys = Object.keys(params).filter(key => isUid(params[key]));
  const plainArgs = Object.fromEntries(Object.entries(params).filter(([key]) => !elementKeys.includes(key)));
  let target: string;
  let elementIds: string[] = [];
  if (elementKeys.length) {
    const {session, objectIds} = await page.resolveElementsForEvaluation(
      elementKeys.map(key => (params[key] as {uid: string}).uid),
    );
    if (session !== page.session) {
      throw new Error('Elements passed to a page tool must be in the main frame, not in an iframe.');
    }
    elementIds = objectIds;
    target = objectIds[0] ?? '';
  } else {
    const {result} = await page.session.send('Runtime.evaluate', {expression: 'window'}, DISCOVERY_TIMEOUT_MS);
    target = result.objectId ?? '';
  }
  const {result, exceptionDetails} = await page.session.send(
    'Runtime.callFunctionOn',
    {
      functionDeclaration: EXECUTE_TOOL,
      objectId: target,
      arguments: [{value: name}, {value: plainArgs}, {value: elementKeys}, ...elementIds.map(objectId => ({objectId}))],
      awaitPromise: true,
      returnByValue: true,
    },
    EXECUTE_TIMEOUT_MS,
  );
  if (exceptionDetails) {
    throw new Error(exceptionMessage(exceptionDetails));
  }
  return typeof result.value === 'string' ? result.value : undefined;
}
