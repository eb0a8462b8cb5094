/**
 * The apps facets of the handles (browser/apps): extensions and PWAs of the
 * browser, third-party developer tools and WebMCP tools of a page.
 */
import {
  installExtension,
  listExtensions,
  reloadExtension,
  triggerExtensionAction,
  uninstallExtension,
} from '../../browser/apps/extensions.js';
import {installPwa, launchPwa, osAppState, uninstallPwa} from '../../browser/apps/pwa.js';
import {
  discoverThirdPartyTools,
  executeThirdPartyTool,
  findThirdPartyTool,
  withElementUids,
} from '../../browser/apps/thirdParty.js';
import {webMcpOf} from '../../browser/apps/webmcp.js';
import type {BrowserScope} from '../../browser/core/BrowserScope.js';
import type {Page} from '../../browser/core/Page.js';
import {tabTargetIdOf} from '../../browser/core/tabs.js';
import {capturePageSnapshot, snapshotState} from '../../snapshot/PageSnapshot.js';
import type {ToolExtensions, ToolPwa, ToolThirdParty, ToolWebMcp} from '../context.js';

export function browserExtensions(scope: BrowserScope): ToolExtensions {
  const connection = scope.browser.connection;
  return {
    install: path => installExtension(connection, path),
    uninstall: id => uninstallExtension(connection, id),
    list: () => listExtensions(connection),
    reload: id => reloadExtension(connection, id),
    async triggerAction(id) {
      const page = scope.getSelectedPage();
      await triggerExtensionAction(connection, id, await tabTargetIdOf(connection, page.targetId, page.url));
    },
  };
}

export function browserPwa(scope: BrowserScope): ToolPwa {
  const browser = scope.browser;
  return {
    install: (manifestId, url, displayMode) => installPwa(browser, manifestId, url, displayMode),
    uninstall: manifestId => uninstallPwa(browser, manifestId),
    launch: async (manifestId, url) => {
      const page = await launchPwa(browser, manifestId, url);
      // The app window is the caller's page, whichever context Chrome opened it in.
      page.ownerId = scope.ownerId;
      return page.url;
    },
    osAppState: manifestId => osAppState(browser, manifestId),
  };
}

/** `signal`: the call's; it stops every request of a discovery, a run and the snapshot that shows its elements. */
export function pageThirdParty(page: Page, signal: AbortSignal | undefined): ToolThirdParty {
  return {
    discover: () => discoverThirdPartyTools(page, signal),
    find: name => findThirdPartyTool(page, name),
    execute: async (name, params) => {
      const {json, marker, elements} = await executeThirdPartyTool(page, name, params, signal);
      const value: unknown = json === undefined ? undefined : JSON.parse(json);
      if (!elements.length) {
        return {value};
      }
      // Elements in the answer become uids of a snapshot that shows them.
      const snapshot = await capturePageSnapshot(page, false, elements, signal);
      const uids = elements.map(element => snapshotState(page).uidForBackendNodeId(element.backendNodeId));
      return {value: withElementUids(value, marker, uids), snapshot};
    },
  };
}

/** `signal`: the call's; it stops the waits, and a run it stops is cancelled in the page. */
export function pageWebMcp(page: Page, signal: AbortSignal | undefined): ToolWebMcp {
  const webMcp = webMcpOf(page);
  return {list: () => webMcp.list(signal), invoke: (name, input) => webMcp.invoke(name, input, signal)};
}
