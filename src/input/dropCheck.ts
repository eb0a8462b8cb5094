/**
 * A mouse drag's drop point, checked again just before the release (issue
 * 22): the target was checked before the press, but what the page does
 * during the drag (an overlay, a dialog, a banner opening) can cover the
 * point, and the release would go to it while the drag reported success.
 */
import type {Page, ResolvedElement} from '../browser/core/Page.js';
import {debug} from '../util/logger.js';
import {nodeAt, type Point, scrollOffset} from './hitTarget.js';

const DROP_GROUP = 'cdp-mcp-drop';

/**
 * In the target's world, `hit` being what Chrome finds at the drop point:
 * null when the drop lands where the drag means it to, else a short
 * description of what is on top. The drag's own: the target and the dragged
 * element (and what is inside them), the items of the list both sit in (a
 * sortable list reflows under the pointer), and the image of the dragged
 * element a library draws under the pointer (a mirror or helper: an element
 * like it, with its text).
 */
const DROP_HIT = `function(hit, from) {
  const to = this;
  const doc = to.ownerDocument;
  const up = n => n.assignedSlot || n.parentNode || n.host || null;
  const within = (outer, node) => { for (let n = node; n; n = up(n)) { if (n === outer) return true; } return false; };
  if (within(to, hit) || within(from, hit)) return null;
  let common = up(to);
  while (common && !within(common, from)) common = up(common);
  const page = n => !n || n === doc || n === doc.body || n === doc.documentElement;
  if (!page(common) && within(common, hit)) return null;
  const text = n => (n.textContent || '').replace(/\\s+/g, ' ').trim();
  const dragged = text(from);
  const hitElement = hit.nodeType === 1 ? hit : hit.parentElement;
  for (let n = hitElement; n && !page(n); n = n.parentElement) {
    if (dragged && n.localName === from.localName && text(n) === dragged) return null;
  }
  if (!hitElement) return 'a text node';
  const cls = typeof hitElement.className === 'string' && hitElement.className.trim() ? ' class="' + hitElement.className.trim().split(/\\s+/).slice(0, 3).join(' ') + '"' : '';
  const id = hitElement.id ? ' id="' + hitElement.id + '"' : '';
  const shown = (hitElement.innerText || hitElement.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 40);
  return '<' + hitElement.localName + id + cls + '>' + (shown ? ' "' + shown + '"' : '');
}`;

/**
 * What covers the drop point `at` (top-level coordinates) now, or undefined
 * when the release will land on the drag's own elements. Only for a target in
 * the page's own process (an out-of-process frame's point would need its
 * chain of frames; its drop was checked before the press).
 */
export async function dropCover(
  page: Page,
  from: ResolvedElement,
  to: ResolvedElement,
  at: Point,
): Promise<string | undefined> {
  if (to.session !== page.session || from.session !== to.session) {
    return undefined;
  }
  const session = page.session;
  const hit = await nodeAt(session, at, await scrollOffset(session));
  if (hit === to.backendNodeId || hit === from.backendNodeId) {
    return undefined;
  }
  try {
    const {object} = await session.send('DOM.resolveNode', {backendNodeId: hit, objectGroup: DROP_GROUP});
    const {result, exceptionDetails} = await session.send('Runtime.callFunctionOn', {
      objectId: to.objectId,
      functionDeclaration: DROP_HIT,
      arguments: [{objectId: object.objectId}, {objectId: from.objectId}],
      returnByValue: true,
    });
    if (exceptionDetails) {
      // Another document (a same-process frame) or world: nothing to compare with, so do not block.
      debug('drop check failed', exceptionDetails.text);
      return undefined;
    }
    return typeof result.value === 'string' ? result.value : undefined;
  } finally {
    void session.trySend('Runtime.releaseObjectGroup', {objectGroup: DROP_GROUP});
  }
}
