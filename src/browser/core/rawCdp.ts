/**
 * send_cdp_command: one raw CDP command to the page's session or the
 * browser, bounded like every command we send, refused when it would break
 * what the server relies on. The server enables domains, auto-attaches
 * targets, intercepts requests and enforces the URL policy and the
 * downloads sandbox through CDP; a raw command must not undo any of that.
 */
import type {CdpCommand} from '../../../protocol/index.js';
import {CdpProtocolError} from '../../cdp/errors.js';
import type {Browser} from './Browser.js';
import type {Page} from './Page.js';

export type RawTarget = 'page' | 'browser';

/** Bound of a raw command (as every command we send by default). */
const RAW_COMMAND_TIMEOUT_MS = 30_000;

/** Our auto-attach settings: the only ones a raw Target.setAutoAttach may repeat. */
const OUR_AUTO_ATTACH = {autoAttach: true, waitForDebuggerOnStart: true, flatten: true};

/** Domains the server enables on its sessions: disabling one blinds a collector or the model. */
const ENABLED_DOMAINS = ['Page', 'Runtime', 'Network', 'Log', 'Debugger', 'Audits', 'Fetch'];

/** Commands refused whatever their parameters, with what to do instead. */
export const REFUSED_COMMANDS: Record<string, string> = {
  'Browser.close': 'it would close the browser the server drives. Stop the server instead.',
  'Browser.crash': 'it would crash the browser the server drives.',
  'Browser.crashGpuProcess': 'it would crash the browser the server drives.',
  'Browser.setDownloadBehavior':
    'downloads go to --downloadsDir, inside the allowed roots. Restart the server with another --downloadsDir.',
  'Page.setDownloadBehavior':
    'downloads go to --downloadsDir, inside the allowed roots. Restart the server with another --downloadsDir.',
  'Page.close': 'the server tracks its pages. Use close_page.',
  'Page.crash': 'it would crash the page the server drives.',
  'Page.setLifecycleEventsEnabled': 'the server waits for navigations through lifecycle events.',
  'Target.setDiscoverTargets': 'the server tracks targets through discovery.',
  'Target.exposeDevToolsProtocol': "it would hand control of the browser to the page's own scripts.",
  'Debugger.setSkipAllPauses': 'a paused page would stop every tool (the server never lets the debugger pause it).',
  'Debugger.pause': 'a paused page would stop every tool.',
  'Network.setRequestInterception': 'requests are intercepted by mock_network_request (Fetch). Use that tool.',
  'Network.emulateNetworkConditions':
    'network conditions carry --blockedUrlPattern/--allowedUrlPattern and emulate. Use emulate for throttling.',
  'Network.emulateNetworkConditionsByRule':
    'network conditions carry --blockedUrlPattern/--allowedUrlPattern and emulate. Use emulate for throttling.',
  'Network.overrideNetworkState': 'network conditions belong to emulate. Use emulate.',
  'Network.setBlockedURLs': 'blocking belongs to --blockedUrlPattern/--allowedUrlPattern.',
};

/** Why a command must not be sent, or undefined when it may. */
export function refusalOf(
  method: string,
  params: Record<string, unknown>,
  owned: {session(id: string): boolean; target(id: string): boolean; context(id: string): boolean},
): string | undefined {
  const fixed = REFUSED_COMMANDS[method];
  if (fixed) {
    return fixed;
  }
  const [domain, command] = method.split('.');
  if (command === 'disable' && domain && ENABLED_DOMAINS.includes(domain)) {
    return `the server keeps the ${domain} domain enabled for its own work.`;
  }
  if (domain === 'Fetch') {
    return 'request interception belongs to mock_network_request. Use it (and clear_network_mocks).';
  }
  if (method === 'Target.setAutoAttach') {
    const same = Object.entries(OUR_AUTO_ATTACH).every(([k, v]) => params[k] === v) && params['filter'] === undefined;
    return same
      ? undefined
      : 'the server relies on its auto-attach settings (autoAttach, waitForDebuggerOnStart, flatten all true).';
  }
  const sessionId = typeof params['sessionId'] === 'string' ? params['sessionId'] : undefined;
  const targetId = typeof params['targetId'] === 'string' ? params['targetId'] : undefined;
  if (
    method === 'Target.detachFromTarget' &&
    ((sessionId && owned.session(sessionId)) || (targetId && owned.target(targetId)))
  ) {
    return 'the server drives that session. Use close_page to close a page.';
  }
  if (method === 'Target.closeTarget' && targetId && owned.target(targetId)) {
    return 'the server tracks that target. Use close_page to close a page.';
  }
  const contextId = typeof params['browserContextId'] === 'string' ? params['browserContextId'] : undefined;
  if (method === 'Target.disposeBrowserContext' && contextId && owned.context(contextId)) {
    return 'pages the server tracks live in that context. Close them with close_page first.';
  }
  return undefined;
}

/** The error of a refused command. */
export class RefusedCommandError extends Error {
  override name = 'RefusedCommandError';
}

/** What Chrome answered: a result, or its error as it reported it. */
export type RawOutcome = {result: unknown} | {error: {code: number | undefined; message: string; data?: string}};

export async function sendRawCommand(
  browser: Browser,
  page: Page,
  method: string,
  params: Record<string, unknown>,
  target: RawTarget,
): Promise<RawOutcome> {
  const pages = browser.pages();
  const refusal = refusalOf(method, params, {
    session: id => browser.ownsSession(id),
    target: id => pages.some(p => p.targetId === id) || pages.some(p => p.frames.oopif(id) !== undefined),
    context: id => pages.some(p => p.browserContextId === id),
  });
  if (refusal) {
    throw new RefusedCommandError(`send_cdp_command refuses ${method}: ${refusal}`);
  }
  try {
    const result: unknown = await browser.connection.send(
      method as CdpCommand,
      params,
      target === 'page' ? page.session.id : undefined,
      RAW_COMMAND_TIMEOUT_MS,
    );
    return {result};
  } catch (error) {
    if (error instanceof CdpProtocolError) {
      return {error: {code: error.code, message: error.protocolMessage, ...(error.data ? {data: error.data} : {})}};
    }
    throw error;
  }
}
