/**
 * Browser-level commands: the Browser, Target, Storage (cookies),
 * SystemInfo, Extensions and PWA commands that act on the whole browser
 * rather than on one page. Every MCP session shares the browser, so these
 * are an explicit allow-list, checked against the calling session's own
 * browser contexts, pages and windows (whatever `target` they are sent to).
 * Listings are filtered to what is the session's. Anything else sent to
 * `target: "browser"` is refused.
 */
import {all, allow, inCategory, navigationUrl, type Params, readPaths, type Rule, type RuleContext} from './rules.js';

/** What the session's own context is called in messages. */
function ownContexts(context: RuleContext): string {
  const ids = context.own.contextIds();
  return ids.length ? ids.join(', ') : 'the default browser context (no browserContextId)';
}

/** `browserContextId` (absent: the default context) must be one of the session's. */
const ownContext: Rule = (params, context) => {
  const id = params['browserContextId'];
  if (id !== undefined && typeof id !== 'string') {
    return undefined; // Chrome rejects it.
  }
  if (context.own.context(id)) {
    return undefined;
  }
  const which = id === undefined ? 'without browserContextId it acts on the default browser context, which' : `${id}`;
  return `${which} is not this session's: raw CDP stays inside this session's browser context (${ownContexts(context)}).`;
};

/** `targetId` must be one of the session's targets (absent: allowed when `optional`). */
const ownTarget =
  (optional: boolean): Rule =>
  (params, {own}) => {
    const id = params['targetId'];
    if (id === undefined && optional) {
      return undefined;
    }
    return typeof id === 'string' && own.target(id)
      ? undefined
      : `${typeof id === 'string' ? 'that target' : 'a command without targetId'} is not one of this session's pages: raw CDP reaches only this session's own targets (see Target.getTargets).`;
  };

/** `windowId` must hold one of the session's pages. */
const ownWindow: Rule = async (params, {own}) => {
  const id = params['windowId'];
  return typeof id === 'number' && (await own.windows()).includes(id)
    ? undefined
    : "that window does not hold one of this session's pages (Browser.getWindowForTarget gives their windows).";
};

/** A page the server tracks is closed with close_page, so the page model stays right. */
const untrackedTarget: Rule = (params, {own}) =>
  typeof params['targetId'] === 'string' && own.trackedPage(params['targetId'])
    ? 'the server tracks that target. Use close_page to close a page.'
    : undefined;

/** Our auto-attach settings: the only ones a raw Target.setAutoAttach may repeat. */
const OUR_AUTO_ATTACH = {autoAttach: true, waitForDebuggerOnStart: true, flatten: true};

const sameAutoAttach: Rule = params =>
  Object.entries(OUR_AUTO_ATTACH).every(([k, v]) => params[k] === v) && params['filter'] === undefined
    ? undefined
    : 'the server relies on its auto-attach settings (autoAttach, waitForDebuggerOnStart, flatten all true).';

const WHOLE_BROWSER = 'it acts on the whole browser, which every session shares.';
const ATTACH =
  "the server is the browser's only client: a session of another target (or of the browser) would reach other sessions' pages and renumber the server's. Use the page's own session (target \"page\").";

/**
 * The browser-level commands a session may send, with their checks. The
 * keys are the whole allow-list for `target: "browser"`.
 */
export const BROWSER_LEVEL: Record<string, Rule> = {
  'Browser.getVersion': allow,
  'Browser.getWindowForTarget': (params, context) => ownTarget(context.target === 'page')(params, context),
  'Browser.getWindowBounds': ownWindow,
  'Browser.setWindowBounds': all(inCategory('emulation', '--categoryEmulation'), ownWindow),
  'Browser.setContentsSize': all(inCategory('emulation', '--categoryEmulation'), ownWindow),
  'Browser.grantPermissions': ownContext,
  'Browser.setPermission': ownContext,
  'Browser.resetPermissions': ownContext,
  'Storage.getCookies': ownContext,
  'Storage.setCookies': ownContext,
  'Storage.clearCookies': ownContext,
  'Target.getTargets': allow,
  'Target.getBrowserContexts': allow,
  'Target.getTargetInfo': ownTarget(true),
  'Target.createTarget': all(inCategory('navigation', '--categoryNavigation'), ownContext, navigationUrl()),
  'Target.activateTarget': ownTarget(false),
  'Target.closeTarget': all(inCategory('navigation', '--categoryNavigation'), ownTarget(false), untrackedTarget),
  'Target.getDevToolsTarget': ownTarget(false),
  'Target.setAutoAttach': sameAutoAttach,
  'SystemInfo.getInfo': allow,
  'SystemInfo.getFeatureState': allow,
  'Schema.getDomains': allow,
  'Extensions.getExtensions': inCategory('extensions', '--categoryExtensions'),
  'Extensions.loadUnpacked': all(inCategory('extensions', '--categoryExtensions'), readPaths('path')),
  'Extensions.uninstall': inCategory('extensions', '--categoryExtensions'),
  'Extensions.triggerAction': all(inCategory('extensions', '--categoryExtensions'), ownTarget(false)),
  'Extensions.getStorageItems': inCategory('extensions', '--categoryExtensions'),
  'Extensions.setStorageItems': inCategory('extensions', '--categoryExtensions'),
  'Extensions.removeStorageItems': inCategory('extensions', '--categoryExtensions'),
  'Extensions.clearStorageItems': inCategory('extensions', '--categoryExtensions'),
  'PWA.getOsAppState': inCategory('pwa', '--categoryPwa'),
  'PWA.install': inCategory('pwa', '--categoryPwa'),
  'PWA.uninstall': inCategory('pwa', '--categoryPwa'),
  'PWA.launch': inCategory('pwa', '--categoryPwa'),
  'PWA.launchFilesInApp': all(inCategory('pwa', '--categoryPwa'), readPaths('files')),
  'PWA.openCurrentPageInApp': all(inCategory('pwa', '--categoryPwa'), ownTarget(false)),
  'PWA.changeAppUserSettings': inCategory('pwa', '--categoryPwa'),
};

/** Browser-level commands refused with a reason of their own (the rest get the allow-list's). */
export const BROWSER_REFUSALS: Record<string, string> = {
  'Browser.close': 'it would close the browser the server drives. Stop the server instead.',
  'Browser.crash': 'it would crash the browser the server drives.',
  'Browser.crashGpuProcess': 'it would crash the browser the server drives.',
  'Browser.setDownloadBehavior':
    'downloads go to --downloadsDir, inside the allowed roots. Restart the server with another --downloadsDir.',
  'Browser.cancelDownload': "downloads belong to the server's sessions (list_downloads shows this session's).",
  'Browser.getBrowserCommandLine': "the command line holds the operator's flags and profile.",
  'Target.attachToTarget': ATTACH,
  'Target.attachToBrowserTarget': ATTACH,
  'Target.autoAttachRelated': ATTACH,
  'Target.sendMessageToTarget': ATTACH,
  'Target.detachFromTarget': 'the server drives that session (and every other one). Use close_page to close a page.',
  'Target.exposeDevToolsProtocol': "it would hand control of the browser to the page's own scripts.",
  'Target.createBrowserContext':
    "each session gets its browser context from the server (new_page's isolatedContext opens more).",
  'Target.disposeBrowserContext':
    'browser contexts belong to the sessions the server keeps. Close pages with close_page.',
  'Target.setDiscoverTargets': 'the server tracks targets through discovery.',
  'Target.setRemoteLocations': 'the server is the only client of the browser.',
  'Target.openDevTools': 'DevTools windows come with --experimentalDevtools.',
  'Tethering.bind': 'it would open a port on the browser that any local user could reach.',
  'Tethering.unbind': 'it would open a port on the browser that any local user could reach.',
  'Tracing.start':
    "a trace records every process of the browser, other sessions' pages included. Use performance_start_trace.",
  'SystemInfo.getProcessInfo': "it lists every process of the browser, other sessions' renderers included.",
};

/** Why a browser-level command is refused, or undefined when it may go (parameters may be rewritten). */
export async function browserLevelVerdict(
  method: string,
  params: Params,
  context: RuleContext,
): Promise<string | undefined> {
  const rule = BROWSER_LEVEL[method];
  if (rule) {
    return rule(params, context);
  }
  const domain = method.split('.')[0] ?? '';
  const reason =
    BROWSER_REFUSALS[method] ??
    (['Browser', 'Target', 'Tethering', 'Tracing', 'SystemInfo', 'Extensions', 'PWA'].includes(domain)
      ? WHOLE_BROWSER
      : undefined);
  if (context.target === 'page' && reason === undefined) {
    return undefined;
  }
  return `${reason ?? `with target "browser" it would act beyond this session's browser context.`} With target "browser" only these commands go, checked against this session's own browser context and pages: ${Object.keys(BROWSER_LEVEL).join(', ')}. Send page-level commands with target "page".`;
}

/** Whether a command is one the browser-level rules govern whatever its target. */
export function isBrowserLevel(method: string): boolean {
  const domain = method.split('.')[0] ?? '';
  return (
    method in BROWSER_LEVEL ||
    method in BROWSER_REFUSALS ||
    ['Browser', 'Target', 'Tethering', 'Tracing', 'SystemInfo', 'Extensions', 'PWA'].includes(domain)
  );
}
