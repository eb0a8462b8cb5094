import {ElementGoneError, type Page} from '../../browser/core/Page.js';
import {CdpTimeoutError} from '../../cdp/errors.js';
import {paginate} from '../../response/format.js';
import {TimeoutError} from '../../util/async.js';
import {CascadeCollector, formatCascade} from './cascade.js';
import {type MatchedStylesResult, PageStyles} from './PageStyles.js';

const DESCRIBE_TIMEOUT_MS = 5_000;

/**
 * get_css_styles' text for an element of the latest snapshot: the pagination
 * line(s), then one page of its cascade.
 */
export async function cssStylesText(page: Page, uid: string, pageSize: number, pageIdx: number): Promise<string[]> {
  const elements = page.getElements();
  const {sdk, matched, containers} = await matchedStyles(page, uid);
  const collector = new CascadeCollector(sdk, matched, {
    resolveUid: id => elements.uidForBackendNodeId?.(id),
    containers,
  });
  const {items, lines} = paginate(collector.collect(), pageSize, pageIdx);
  return [...lines, formatCascade(collector.elementSelector, uid, items)];
}

/**
 * The cascade of a uid's element. Whether the element is still there is no
 * question of its own: DevTools' model asks the page for the node where the
 * snapshot saw it (pushing it brings its ancestors, so whether it moved into a
 * closed shadow root is known without asking). Only when the lookup fails is
 * the element resolved, for the error that says why (gone, moved, another
 * document), which then comes before the lookup's own.
 */
async function matchedStyles(page: Page, uid: string): Promise<MatchedStylesResult> {
  const elements = page.getElements();
  const located = elements.locate?.(uid);
  if (!located || !elements.movedIntoClosedRoot) {
    // No place known without asking (an element without a DOM node is stale): resolve first.
    return PageStyles.of(page).matchedStyles(await backendNodeIdOf(page, uid), uid);
  }
  if (located.session !== page.session) {
    throw outOfProcess(uid);
  }
  let result: MatchedStylesResult;
  try {
    result = await PageStyles.of(page).matchedStyles(located.backendNodeId, uid);
  } catch (error) {
    if (error instanceof CdpTimeoutError || error instanceof TimeoutError) {
      // The page did not answer: asking it again where the element is would wait another bound.
      throw error;
    }
    await elements.resolve(uid);
    throw error;
  }
  if (result.closedHost !== undefined && elements.movedIntoClosedRoot(uid, result.closedHost)) {
    throw new ElementGoneError(uid, 'moved');
  }
  return result;
}

/** Resolves the uid (its errors: stale, moved) to the backend node id of its element. */
async function backendNodeIdOf(page: Page, uid: string): Promise<number> {
  const element = await page.getElements().resolve(uid);
  if (element.session !== page.session) {
    throw outOfProcess(uid);
  }
  const backendNodeId =
    element.backendNodeId ??
    (await element.session.trySend('DOM.describeNode', {objectId: element.objectId}, DESCRIBE_TIMEOUT_MS))?.node
      .backendNodeId;
  if (backendNodeId === undefined) {
    throw new Error(`Failed to resolve backend node ID for element with uid "${uid}".`);
  }
  return backendNodeId;
}

function outOfProcess(uid: string): Error {
  return new Error(
    `Element "${uid}" is in an out-of-process iframe; get_css_styles reads styles of the page's own frames only.`,
  );
}
