/**
 * send_cdp_command: one raw CDP command to the page's session or the
 * browser, bounded like every command we send, sent only when the policy
 * lets it: a command of the pinned protocol, inside the calling session's
 * own browser context and pages (browserLevel.ts), obeying the operator's
 * switches and the file sandbox, and not undoing what the server relies on
 * (pageDomains.ts). Listings are filtered to what is the session's.
 */
import type {CdpCommand} from '../../../protocol/index.js';
import {PINNED_COMMANDS} from '../../../protocol/methods.js';
import {CdpProtocolError} from '../../cdp/errors.js';
import type {Browser} from '../core/Browser.js';
import type {BrowserScope} from '../core/BrowserScope.js';
import type {Page} from '../core/Page.js';
import {noteRawDomCommand} from '../core/unbufferedInput.js';
import {browserLevelVerdict, isBrowserLevel} from './browserLevel.js';
import {PAGE_DOMAINS} from './pageDomains.js';
import type {Domain, Ownership, Params, RawSwitches, RawTarget, RuleContext} from './rules.js';

export type {RawCategory, RawSwitches, RawTarget} from './rules.js';

/** Bound of a raw command (as every command we send by default). */
const RAW_COMMAND_TIMEOUT_MS = 30_000;

/** The error of a refused command. */
export class RefusedCommandError extends Error {
  override name = 'RefusedCommandError';
}

/** What Chrome answered: a result, or its error as it reported it. */
export type RawOutcome = {result: unknown} | {error: {code: number | undefined; message: string; data?: string}};

export interface RawRequest {
  /** The calling session's view of the browser. */
  scope: BrowserScope;
  page: Page;
  method: string;
  params: Params;
  target: RawTarget;
  switches: RawSwitches;
}

/** Stream handles and blob ids each session got from its own raw commands: the only ones IO may read. */
const streams = new WeakMap<BrowserScope, Set<string>>();

/** Bound of the lookups that tell what is the session's (targets and contexts). */
const LOOKUP_MS = 5_000;

/**
 * What belongs to the session whose scope this is, from what Chrome reports
 * now (every target with its context, the default context): a page the
 * server tracks is its owner's; any other target is the owner's of its
 * context (the default context's unowned targets are the default-context
 * session's, as its unowned pages are).
 */
export async function ownershipOf(scope: BrowserScope): Promise<Ownership> {
  const browser = scope.browser;
  const [{targetInfos}, {defaultBrowserContextId}] = await Promise.all([
    browser.connection.send('Target.getTargets', {}, undefined, LOOKUP_MS),
    browser.connection.send('Target.getBrowserContexts', {}, undefined, LOOKUP_MS),
  ]);
  const contextOf = new Map(targetInfos.map(t => [t.targetId, t.browserContextId]));
  const isDefault = (id: string | undefined) => id === undefined || id === defaultBrowserContextId;
  const contexts = () => scope.contexts().map(c => c.id);
  const inDefault = () => !scope.contexts().some(c => c.name === undefined);
  const pageOf = (targetId: string) =>
    browser.pages().find(p => p.targetId === targetId || p.frames.oopif(targetId) !== undefined);
  return {
    context: id => (isDefault(id) ? inDefault() : contexts().includes(id as string)),
    target(id) {
      const page = pageOf(id);
      if (page) {
        return page.ownerId === scope.ownerId;
      }
      if (!contextOf.has(id)) {
        return false;
      }
      const context = contextOf.get(id);
      return isDefault(context) ? browser.isDefaultOwner(scope) : contexts().includes(context as string);
    },
    trackedPage: id => pageOf(id) !== undefined,
    contextIds: contexts,
    async windows() {
      const ids = await Promise.all(
        scope.pages().map(p =>
          browser.connection
            .send('Browser.getWindowForTarget', {targetId: p.targetId}, undefined, LOOKUP_MS)
            .then(r => r.windowId)
            .catch(() => undefined),
        ),
      );
      return ids.filter((id): id is number => id !== undefined);
    },
  };
}

/** Why the command is refused, or undefined when it may go (its parameters possibly rewritten). */
export async function refusalOf(method: string, params: Params, context: RuleContext): Promise<string | undefined> {
  const [domain = '', command = ''] = method.split('.');
  if (!PINNED_COMMANDS[domain]?.split(' ').includes(command)) {
    return "it is not in this server's pinned protocol, so what it does was never reviewed (Chrome may know it; this server does not send it).";
  }
  if (context.target === 'browser' || isBrowserLevel(method)) {
    return browserLevelVerdict(method, params, context);
  }
  const policy = PAGE_DOMAINS[domain as Domain];
  if (policy.category && !context.switches.categories.has(policy.category)) {
    const flag =
      policy.category === 'webmcp' ? '--categoryExperimentalWebmcp' : `--category${capital(policy.category)}`;
    return `the ${domain} domain does what the tools of ${flag} do, which is off. Restart the server with ${flag}=true.`;
  }
  const rule = (policy.commands as Partial<Record<string, typeof policy.default>> | undefined)?.[command];
  return (rule ?? policy.default)(params, context);
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** IO reads only what the session's own raw commands handed it. */
function streamRefusal(scope: BrowserScope, method: string, params: Params): string | undefined {
  if (method !== 'IO.read' && method !== 'IO.close') {
    return undefined;
  }
  const handle = params['handle'];
  return typeof handle === 'string' && streams.get(scope)?.has(handle)
    ? undefined
    : "that stream is not one this session's raw commands opened (the server's own streams and other sessions' stay theirs).";
}

export async function sendRawCommand(request: RawRequest): Promise<RawOutcome> {
  const {scope, page, method, target, switches} = request;
  const browser = scope.browser;
  const own = await ownershipOf(scope);
  const params = structuredClone(request.params);
  const refusal = (await refusalOf(method, params, {target, switches, own})) ?? streamRefusal(scope, method, params);
  if (refusal) {
    throw new RefusedCommandError(`send_cdp_command refuses ${method}: ${refusal}`);
  }
  if (target === 'page') {
    // Our own DOM.enable/DOM.disable pair (unbufferedInput.ts) then leaves the caller's DOM domain on.
    noteRawDomCommand(page.session, method);
  }
  let result: unknown;
  try {
    result = await browser.connection.send(
      method as CdpCommand,
      params,
      target === 'page' ? page.session.id : undefined,
      RAW_COMMAND_TIMEOUT_MS,
    );
  } catch (error) {
    if (error instanceof CdpProtocolError) {
      return {error: {code: error.code, message: error.protocolMessage, ...(error.data ? {data: error.data} : {})}};
    }
    throw error;
  }
  await afterwards(browser, scope, method, result);
  return {result: visible(method, result, own, switches)};
}

/** What a command leaves for the session: the page it opened, the streams it may read. */
async function afterwards(browser: Browser, scope: BrowserScope, method: string, result: unknown): Promise<void> {
  const answer = (result ?? {}) as Record<string, unknown>;
  if (method === 'Target.createTarget' && typeof answer['targetId'] === 'string') {
    // In the default context the page would go to the default-context owner: it is the caller's.
    const page = await browser.pageForTarget(answer['targetId']).catch(() => undefined);
    if (page) {
      page.ownerId = scope.ownerId;
    }
  }
  const handle =
    typeof answer['stream'] === 'string'
      ? answer['stream']
      : method === 'IO.resolveBlob' && typeof answer['uuid'] === 'string'
        ? `blob:${answer['uuid']}`
        : undefined;
  if (handle) {
    const set = streams.get(scope) ?? new Set<string>();
    set.add(handle);
    streams.set(scope, set);
  }
}

/** Cookie listings that --redactNetworkHeaders hides the values of. */
const COOKIE_LISTINGS = new Set(['Network.getCookies', 'Network.getAllCookies', 'Storage.getCookies']);

/** The result as the session may see it: listings cut to its own targets and contexts. */
function visible(method: string, result: unknown, own: Ownership, switches: RawSwitches): unknown {
  const answer = (result ?? {}) as Record<string, unknown>;
  if (method === 'Target.getTargets' && Array.isArray(answer['targetInfos'])) {
    const infos = answer['targetInfos'] as Array<{targetId: string}>;
    return {...answer, targetInfos: infos.filter(info => own.target(info.targetId))};
  }
  if (method === 'Target.getBrowserContexts' && Array.isArray(answer['browserContextIds'])) {
    const {defaultBrowserContextId, browserContextIds} = answer as {
      defaultBrowserContextId?: string;
      browserContextIds: string[];
    };
    return {
      ...(defaultBrowserContextId && own.context(undefined) ? {defaultBrowserContextId} : {}),
      browserContextIds: browserContextIds.filter(id => own.context(id)),
    };
  }
  if (switches.redactNetworkHeaders && COOKIE_LISTINGS.has(method) && Array.isArray(answer['cookies'])) {
    const cookies = answer['cookies'] as Array<Record<string, unknown>>;
    return {...answer, cookies: cookies.map(cookie => ({...cookie, value: '<redacted>'}))};
  }
  return result;
}
