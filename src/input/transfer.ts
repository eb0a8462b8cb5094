import type {Page, ResolvedElement} from '../browser/core/Page.js';
import {deferred, withTimeout} from '../util/async.js';
import {actionPoint, callOn, mouseClick, pageDrew, type Point} from './actions.js';

/** Fewest and most pointer moves of one drag (Chrome delivers one move per animation frame). */
const MIN_STEPS = 3;
const MAX_STEPS = 25;

/**
 * Where a drag onto `to` ends: past the middle of the target in the direction
 * of travel (a quarter of its size along the main axis), so that a sortable
 * list that swaps items when the pointer crosses an item's middle puts the
 * dragged item at the target's place, not one short of it. `stride` is half
 * the target's size along that axis: a list of items like it swaps at most
 * once per move, so the moves must not be longer than that.
 */
async function dropPoint(
  page: Page,
  to: ResolvedElement,
  toUid: string,
  start: Point,
): Promise<{end: Point; stride: number}> {
  const centre = await actionPoint(page, to, toUid, false, {hitTest: false});
  const [width, height] = await callOn<[number, number]>(
    to,
    'function() { const r = this.getBoundingClientRect(); return [r.width, r.height]; }',
  );
  const dx = centre.x - start.x;
  const dy = centre.y - start.y;
  if (Math.abs(dy) >= Math.abs(dx)) {
    return {end: {x: centre.x, y: centre.y + (Math.sign(dy) * height) / 4}, stride: height / 2};
  }
  return {end: {x: centre.x + (Math.sign(dx) * width) / 4, y: centre.y}, stride: width / 2};
}

/** How long we wait for a drag to start or a file chooser to open after the gesture. */
const DRAG_START_MS = 300;
const FILE_CHOOSER_MS = 3_000;

/**
 * Drags one element onto another with real mouse events. When the source is
 * draggable (HTML5 drag and drop), the drag Chrome starts is intercepted and
 * finished with dragenter/dragover/drop on the target, so page handlers see
 * the same DataTransfer a user's drag produces.
 */
export async function dragAndDrop(
  page: Page,
  from: ResolvedElement,
  fromUid: string,
  to: ResolvedElement,
  toUid: string,
): Promise<void> {
  const s = page.session;
  const start = await actionPoint(page, from, fromUid, false);
  await s.send('Input.setInterceptDrags', {enabled: true});
  const intercepted = deferred<unknown>();
  const off = s.on('Input.dragIntercepted', ({data}) => intercepted.resolve(data));
  try {
    await s.send('Input.dispatchMouseEvent', {type: 'mouseMoved', x: start.x, y: start.y});
    await s.send('Input.dispatchMouseEvent', {
      type: 'mousePressed',
      x: start.x,
      y: start.y,
      button: 'left',
      buttons: 1,
      clickCount: 1,
    });
    const drop = await dropPoint(page, to, toUid, start);
    let end: Point = drop.end;
    const distance = Math.hypot(end.x - start.x, end.y - start.y);
    const steps = Math.min(MAX_STEPS, Math.max(MIN_STEPS, Math.ceil(distance / Math.max(drop.stride, 1))));
    for (let i = 1; i <= steps; i++) {
      await s.send('Input.dispatchMouseEvent', {
        type: 'mouseMoved',
        x: start.x + ((end.x - start.x) * i) / steps,
        y: start.y + ((end.y - start.y) * i) / steps,
        button: 'left',
        buttons: 1,
      });
    }
    const data = await withTimeout(intercepted.promise, DRAG_START_MS, 'no drag').catch(() => undefined);
    if (data) {
      end = await actionPoint(page, to, toUid, false, {hitTest: false});
      const dragData = data as {items: Array<{mimeType: string; data: string}>; dragOperationsMask: number};
      for (const type of ['dragEnter', 'dragOver', 'drop'] as const) {
        await s.send('Input.dispatchDragEvent', {type, x: end.x, y: end.y, data: dragData});
      }
      await s.send('Input.dispatchMouseEvent', {
        type: 'mouseReleased',
        x: end.x,
        y: end.y,
        button: 'left',
        buttons: 0,
        clickCount: 1,
      });
    } else {
      // A mouse-driven drag (a sortable list) may have reflowed the list under the pointer:
      // the target is no longer where it was. Release where the moves put the pointer, once
      // the page has handled them; moving again to the target's new place would undo the move.
      await pageDrew(to);
      await s.send('Input.dispatchMouseEvent', {
        type: 'mouseReleased',
        x: end.x,
        y: end.y,
        button: 'left',
        buttons: 0,
        clickCount: 1,
      });
    }
  } finally {
    off();
    await s.trySend('Input.setInterceptDrags', {enabled: false});
  }
}

/**
 * Puts files into a file input, or into the file chooser the element opens
 * when clicked (the chooser is intercepted, so no native dialog appears and
 * nothing hangs). Throws the reference's message when neither works.
 */
export async function uploadFiles(page: Page, element: ResolvedElement, uid: string, files: string[]): Promise<void> {
  const isFileInput = await callOn<boolean>(
    element,
    "function() { return this.localName === 'input' && this.type === 'file'; }",
  );
  if (isFileInput) {
    await element.session.send('DOM.setFileInputFiles', {files, objectId: element.objectId});
    return;
  }
  const sessions = element.session === page.session ? [page.session] : [page.session, element.session];
  const opened = deferred<{backendNodeId?: number; session: typeof page.session}>();
  const offs = sessions.map(session =>
    session.on('Page.fileChooserOpened', ({backendNodeId}) => opened.resolve({backendNodeId, session})),
  );
  try {
    await Promise.all(sessions.map(session => session.send('Page.setInterceptFileChooserDialog', {enabled: true})));
    const point = await actionPoint(page, element, uid, true);
    await mouseClick(page, point, 1);
    const chooser = await withTimeout(opened.promise, FILE_CHOOSER_MS, 'no file chooser');
    if (chooser.backendNodeId === undefined) {
      throw new Error('no file input behind the chooser');
    }
    await chooser.session.send('DOM.setFileInputFiles', {files, backendNodeId: chooser.backendNodeId});
  } catch (error) {
    throw new Error(
      'Failed to upload file. The element could not accept the file directly, and clicking it did not trigger a file chooser.',
      {cause: error},
    );
  } finally {
    for (const off of offs) {
      off();
    }
    await Promise.all(sessions.map(session => session.trySend('Page.setInterceptFileChooserDialog', {enabled: false})));
  }
}
