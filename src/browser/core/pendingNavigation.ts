import type {CdpSession} from '../../cdp/CdpConnection.js';

/**
 * Follows the main frame's cross-document navigations: `set(url)` when one
 * starts, `set(undefined)` once it commits a document, fails or is stopped.
 * Until then Chrome holds every command to the page's renderer (a call on a
 * page whose navigation never gets its response waits like one on a page
 * whose scripts never yield: server/laneNotes.ts tells the two apart).
 * Returns the unsubscribers.
 */
export function listenPendingNavigation(
  session: CdpSession,
  mainFrameId: string,
  set: (url: string | undefined) => void,
): Array<() => void> {
  return [
    session.on('Page.frameStartedNavigating', ({frameId, url, navigationType}) => {
      if (frameId === mainFrameId && navigationType !== 'sameDocument' && navigationType !== 'historySameDocument') {
        set(url);
      }
    }),
    session.on('Page.frameNavigated', ({frame}) => {
      if (frame.id === mainFrameId) {
        set(undefined);
      }
    }),
    session.on('Page.frameStoppedLoading', ({frameId}) => {
      if (frameId === mainFrameId) {
        set(undefined);
      }
    }),
  ];
}
