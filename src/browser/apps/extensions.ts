/**
 * Unpacked extensions over the `Extensions` domain of the browser target
 * (Chrome started with `--enable-unsafe-extension-debugging`). Errors carry
 * chrome-devtools-mcp 1.11's texts.
 */
import type {CdpConnection} from '../../cdp/CdpConnection.js';
import {CdpTimeoutError} from '../../cdp/errors.js';
import {openCheckedFolder} from '../../util/safeOpen.js';

/** How long Chrome may take to load or remove an extension. */
const EXTENSION_TIMEOUT_MS = 30_000;
/** Bound on listing and triggering. */
const EXTENSION_QUERY_TIMEOUT_MS = 10_000;

/** An installed extension, as Chrome reports it. */
export interface ExtensionInfo {
  id: string;
  name: string;
  version: string;
  path: string;
  enabled: boolean;
}

async function timed<T>(promise: Promise<T>, timeoutText: string): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    throw error instanceof CdpTimeoutError ? new Error(timeoutText, {cause: error}) : error;
  }
}

/**
 * Loads the unpacked extension in folder `path` (canonical, checked against
 * the roots). Chrome reads the folder itself, by path: so the folder must be
 * a real one (no link on its way) when handed over, and the folder Chrome
 * says it loaded must be that path; an extension loaded from anywhere else
 * (a folder swapped in between) is removed again.
 */
export async function installExtension(connection: CdpConnection, path: string): Promise<string> {
  const folder = await openCheckedFolder(path);
  if (!folder) {
    throw new Error(
      `${path} is not a folder (or a folder on its way is a symbolic link). Give the extension's folder.`,
    );
  }
  await folder.close();
  const {id} = await timed(
    connection.send('Extensions.loadUnpacked', {path}, undefined, EXTENSION_TIMEOUT_MS),
    'Timeout installing extension',
  );
  const loaded = (await listExtensions(connection)).find(extension => extension.id === id);
  if (loaded && loaded.path !== path) {
    await uninstallExtension(connection, id).catch(() => undefined);
    throw new Error(`${path} changed while Chrome loaded it (Chrome read ${loaded.path}); the extension was removed.`);
  }
  return id;
}

export async function uninstallExtension(connection: CdpConnection, id: string): Promise<void> {
  await timed(
    connection.send('Extensions.uninstall', {id}, undefined, EXTENSION_TIMEOUT_MS),
    'Timeout uninstalling extension',
  );
}

export async function listExtensions(connection: CdpConnection): Promise<ExtensionInfo[]> {
  const {extensions} = await connection.send('Extensions.getExtensions', {}, undefined, EXTENSION_QUERY_TIMEOUT_MS);
  return extensions.map(({id, name, version, path, enabled}) => ({id, name, version, path, enabled}));
}

async function findExtension(connection: CdpConnection, id: string): Promise<ExtensionInfo> {
  const found = (await listExtensions(connection)).find(extension => extension.id === id);
  if (!found) {
    throw new Error(`Extension with ID ${id} not found.`);
  }
  return found;
}

/** Loads the extension again from its folder (picking up changed files). */
export async function reloadExtension(connection: CdpConnection, id: string): Promise<void> {
  const {path} = await findExtension(connection, id);
  await installExtension(connection, path);
}

/** Clicks the extension's toolbar action for the tab target `tabId`. */
export async function triggerExtensionAction(connection: CdpConnection, id: string, tabId: string): Promise<void> {
  await findExtension(connection, id);
  await connection.send('Extensions.triggerAction', {id, targetId: tabId}, undefined, EXTENSION_QUERY_TIMEOUT_MS);
}
