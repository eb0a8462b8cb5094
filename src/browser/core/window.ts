import type {CdpConnection} from '../../cdp/CdpConnection.js';

/**
 * Sets the size of a page's content area through its window (a browser-level
 * call: the window belongs to the browser, not the page's session).
 */
export async function resizeContent(
  connection: CdpConnection,
  targetId: string,
  width: number,
  height: number,
): Promise<void> {
  const {windowId} = await connection.send('Browser.getWindowForTarget', {targetId});
  const {bounds} = await connection.send('Browser.getWindowBounds', {windowId});
  if (bounds.windowState && bounds.windowState !== 'normal') {
    // Chrome refuses to size a maximized/fullscreen window's contents; a
    // fullscreen window needs a second request to leave its maximized state.
    await connection
      .send('Browser.setWindowBounds', {windowId, bounds: {windowState: 'normal'}})
      .catch(() => undefined);
    if (bounds.windowState === 'fullscreen') {
      await connection
        .send('Browser.setWindowBounds', {windowId, bounds: {windowState: 'normal'}})
        .catch(() => undefined);
    }
  }
  await connection.send('Browser.setContentsSize', {windowId, width, height});
}
