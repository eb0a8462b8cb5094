/**
 * Progressive Web Apps (`--categoryPwa`), by manifest id (the manifest's
 * `id`, else its `start_url`, resolved to a full URL).
 */
import * as v from 'valibot';

import {defineTool} from './defineTool.js';

const manifestIdEntry = {
  manifestId: v.pipe(
    v.string(),
    v.description("The app's manifest id: the manifest's id resolved to a full URL, else its start_url."),
  ),
};

export const installPwa = defineTool({
  name: 'install_pwa',
  title: 'Install web app',
  description: 'Install a web app from a page that links its manifest (or from a signed web bundle URL).',
  annotations: {
    category: 'pwa',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  schema: {
    ...manifestIdEntry,
    installUrlOrBundleUrl: v.pipe(
      v.string(),
      v.description('The URL of a page that links the manifest, or of a signed web bundle (http(s):// or file://).'),
    ),
    displayMode: v.optional(
      v.pipe(
        v.picklist(['standalone', 'browser']),
        v.description('Open the app in its own window (standalone) or in a tab (browser). Default: as Chrome decides.'),
      ),
    ),
  },
  async handler({params}, response, {browser}) {
    await browser.pwa.install(params.manifestId, params.installUrlOrBundleUrl, params.displayMode);
    response.line(`Installed PWA with manifest ID: ${params.manifestId}`);
    if (params.displayMode) {
      response.line(`Display mode set to: ${params.displayMode}`);
    }
  },
});

export const uninstallPwa = defineTool({
  name: 'uninstall_pwa',
  title: 'Uninstall web app',
  description: 'Uninstall a web app by its manifest id (closes its windows).',
  annotations: {
    category: 'pwa',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  schema: manifestIdEntry,
  async handler({params}, response, {browser}) {
    await browser.pwa.uninstall(params.manifestId);
    response.line(`Uninstalled PWA with manifest ID: ${params.manifestId}`);
    response.includePages();
  },
});

export const launchPwa = defineTool({
  name: 'launch_pwa',
  title: 'Launch web app',
  description: 'Open an installed web app (optionally at a URL inside its scope); returns the page list.',
  annotations: {
    category: 'pwa',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  schema: {
    ...manifestIdEntry,
    url: v.optional(v.pipe(v.string(), v.description("A URL inside the app's scope to open. Default: its start URL."))),
  },
  async handler({params}, response, {browser}) {
    const url = await browser.pwa.launch(params.manifestId, params.url);
    response.line(`Launched PWA with manifest ID: ${params.manifestId} (${url})`);
    response.includePages();
  },
});

export const getOsAppState = defineTool({
  name: 'get_os_app_state',
  title: 'Get web app OS state',
  description: 'Show what an installed web app set in the OS: its badge count and file handlers.',
  annotations: {category: 'pwa', readOnlyHint: true},
  schema: manifestIdEntry,
  async handler({params}, response, {browser}) {
    const {badgeCount, fileHandlers} = await browser.pwa.osAppState(params.manifestId);
    response.line(
      `OS app state for manifest ID: ${params.manifestId}`,
      `Badge count: ${badgeCount}`,
      `File handlers: ${JSON.stringify(fileHandlers)}`,
    );
  },
});
