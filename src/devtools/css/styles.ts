import type {Page} from '../../browser/core/Page.js';
import {paginate} from '../../response/format.js';
import {CascadeCollector, formatCascade} from './cascade.js';
import {PageStyles} from './PageStyles.js';

const DESCRIBE_TIMEOUT_MS = 5_000;

/**
 * get_css_styles' text for an element of the latest snapshot: the pagination
 * line(s), then one page of its cascade.
 */
export async function cssStylesText(page: Page, uid: string, pageSize: number, pageIdx: number): Promise<string[]> {
  const elements = page.getElements();
  // Both questions at once, as neither needs the other's answer: whether the
  // element is still there (resolve: two round trips) and its cascade
  // (DevTools' model: three). The resolve's verdict still comes first: a
  // stale or moved element fails with its error, whatever the styles said.
  const located = elements.locate?.(uid);
  const early =
    located?.session === page.session ? PageStyles.of(page).matchedStyles(located.backendNodeId, uid) : undefined;
  early?.catch(() => undefined);
  const element = await elements.resolve(uid);
  if (element.session !== page.session) {
    throw new Error(
      `Element "${uid}" is in an out-of-process iframe; get_css_styles reads styles of the page's own frames only.`,
    );
  }
  const backendNodeId =
    element.backendNodeId ??
    (await element.session.trySend('DOM.describeNode', {objectId: element.objectId}, DESCRIBE_TIMEOUT_MS))?.node
      .backendNodeId;
  if (backendNodeId === undefined) {
    throw new Error(`Failed to resolve backend node ID for element with uid "${uid}".`);
  }
  const styles =
    early && backendNodeId === located?.backendNodeId ? early : PageStyles.of(page).matchedStyles(backendNodeId, uid);
  const {sdk, matched, containers} = await styles;
  const collector = new CascadeCollector(sdk, matched, {
    resolveUid: id => elements.uidForBackendNodeId?.(id),
    containers,
  });
  const {items, lines} = paginate(collector.collect(), pageSize, pageIdx);
  return [...lines, formatCascade(collector.elementSelector, uid, items)];
}
