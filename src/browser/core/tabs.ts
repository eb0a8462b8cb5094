/**
 * The tab target that holds a page target. Chrome lists tabs as targets of
 * type `tab` whose ids differ from their pages' and names no parent on the
 * page, so the link is found by attaching to a tab and letting it announce
 * the page it holds (auto-attach reports existing children before it answers).
 */
import type {CdpConnection} from '../../cdp/CdpConnection.js';

/** Bound on each round trip of the lookup. */
const TAB_LOOKUP_TIMEOUT_MS = 5_000;

/** The page target ids a tab holds (its main page, and prerendered ones). */
export async function pagesOfTab(connection: CdpConnection, tabId: string): Promise<string[]> {
  const {sessionId} = await connection.send(
    'Target.attachToTarget',
    {targetId: tabId, flatten: true},
    undefined,
    TAB_LOOKUP_TIMEOUT_MS,
  );
  const session = connection.session(sessionId, tabId, 'tab');
  const pages: string[] = [];
  const off = session.on('Target.attachedToTarget', ({targetInfo}) => {
    if (targetInfo.type === 'page') {
      pages.push(targetInfo.targetId);
    }
  });
  try {
    await session.send(
      'Target.setAutoAttach',
      {autoAttach: true, waitForDebuggerOnStart: false, flatten: true},
      TAB_LOOKUP_TIMEOUT_MS,
    );
  } finally {
    off();
    // Detaching the tab's session also lets go of the children it attached.
    await connection
      .send('Target.detachFromTarget', {sessionId}, undefined, TAB_LOOKUP_TIMEOUT_MS)
      .catch(() => undefined);
  }
  return pages;
}

/** The id of the tab target holding the page target `pageTargetId`; throws when no tab holds it. */
export async function tabTargetIdOf(connection: CdpConnection, pageTargetId: string, pageUrl: string): Promise<string> {
  const {targetInfos} = await connection.send(
    'Target.getTargets',
    {filter: [{type: 'tab'}]},
    undefined,
    TAB_LOOKUP_TIMEOUT_MS,
  );
  // The tab showing the page's URL is most likely the one: ask it first.
  const tabs = [...targetInfos].sort((a, b) => Number(b.url === pageUrl) - Number(a.url === pageUrl));
  for (const tab of tabs) {
    if ((await pagesOfTab(connection, tab.targetId)).includes(pageTargetId)) {
      return tab.targetId;
    }
  }
  throw new Error('No tab holds this page (it may be a popup or a background page). Call list_pages and pick a tab.');
}
