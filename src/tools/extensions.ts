/**
 * Unpacked extensions (`--categoryExtensions`): install from a folder,
 * list, reload after editing, click the toolbar action, uninstall.
 */
import * as v from 'valibot';

import {defineTool} from './defineTool.js';

const idEntry = (what: string) => ({id: v.pipe(v.string(), v.description(`The id of the extension to ${what}.`))});

export const installExtension = defineTool({
  name: 'install_extension',
  title: 'Install extension',
  description: 'Install an unpacked Chrome extension from its folder (the one holding manifest.json); returns its id.',
  annotations: {
    category: 'extensions',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  filePaths: ['path'],
  schema: {path: v.pipe(v.string(), v.description('Absolute path of the unpacked extension folder.'))},
  async handler({params}, response, {browser}) {
    const id = await browser.extensions.install(params.path);
    response.line(`Extension installed. Id: ${id}`);
  },
});

export const uninstallExtension = defineTool({
  name: 'uninstall_extension',
  title: 'Uninstall extension',
  description: 'Uninstall a Chrome extension by its id (from list_extensions or install_extension).',
  annotations: {
    category: 'extensions',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  schema: idEntry('uninstall'),
  async handler({params}, response, {browser}) {
    await browser.extensions.uninstall(params.id);
    response.line(`Extension uninstalled. Id: ${params.id}`);
  },
});

export const listExtensions = defineTool({
  name: 'list_extensions',
  title: 'List extensions',
  description: 'List the extensions installed in the browser: id, name, version and whether each is enabled.',
  annotations: {category: 'extensions', readOnlyHint: true},
  sections: ['extensions'],
  schema: {},
  async handler(_request, response, {browser}) {
    const extensions = await browser.extensions.list();
    const lines = extensions.length
      ? extensions.map(e => `id=${e.id} "${e.name}" v${e.version} ${e.enabled ? 'Enabled' : 'Disabled'}`)
      : ['No extensions installed.'];
    response.section('extensions', ['## Extensions', ...lines], extensions);
  },
});

export const reloadExtension = defineTool({
  name: 'reload_extension',
  title: 'Reload extension',
  description: 'Reload an unpacked extension from its folder, e.g. after editing its files.',
  annotations: {
    category: 'extensions',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  schema: idEntry('reload'),
  async handler({params}, response, {browser}) {
    await browser.extensions.reload(params.id);
    response.line('Extension reloaded.');
  },
});

export const triggerExtensionAction = defineTool({
  name: 'trigger_extension_action',
  title: 'Trigger extension action',
  description:
    "Click an extension's toolbar action on the selected page (opens its popup or fires its action.onClicked).",
  annotations: {
    category: 'extensions',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  schema: idEntry('trigger the action of'),
  async handler({params}, response, {browser}) {
    await browser.extensions.triggerAction(params.id);
    response.line(`Extension action triggered for ID ${params.id}`);
  },
});
