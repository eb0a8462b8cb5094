/**
 * Pointer moves dispatched as they come. Chrome's renderer holds a mouse move
 * (and a wheel or touch move) until its next animation frame, to dispatch one
 * a frame, and Input.dispatchMouseEvent answers only once it was dispatched:
 * every hover waited most of a frame (about 17 ms at 60 Hz, more than the rest
 * of the call) for nothing. With the Overlay domain enabled, as with DevTools
 * open, the renderer dispatches input at once ("unbuffered input for the
 * debugger"); the events and their order are the same. Overlay.enable needs
 * the DOM domain enabled when it is called, not after: DOM is disabled again
 * at once (enabled, Chrome would report to us every node a hit test touches),
 * unless the caller of send_cdp_command enabled it. A new document (every
 * cross-document navigation, a new frame target) starts buffered: asked again
 * then. Only a speed-up: nothing waits for it, and a Chrome that refuses it
 * dispatches as before.
 */
import type {CdpSession} from '../../cdp/CdpConnection.js';

/** Sessions whose DOM domain a send_cdp_command caller enabled (kept on for it). */
const domHeld = new WeakSet<CdpSession>();

/** Records a raw DOM.enable or DOM.disable of the caller on a session. */
export function noteRawDomCommand(session: CdpSession, method: string): void {
  if (method === 'DOM.enable') {
    domHeld.add(session);
  } else if (method === 'DOM.disable') {
    domHeld.delete(session);
  }
}

/** Asks the session's renderer to dispatch input without waiting for a frame (commands handled in order). */
export function unbufferInput(session: CdpSession): Promise<unknown> {
  const held = domHeld.has(session);
  return Promise.all([
    held ? undefined : session.trySend('DOM.enable'),
    session.trySend('Overlay.enable'),
    held ? undefined : session.trySend('DOM.disable'),
  ]);
}
