import type {Page, ResolvedElement} from '../browser/core/Page.js';
import {deferred, withTimeout} from '../util/async.js';
import {actionPoint, framesDrawn, pageDrew, type Point} from './actionPoint.js';
import {callOn, mouseClick} from './actions.js';
import {dropCover} from './dropCheck.js';

/** Fewest and most pointer moves of one drag, each in a frame of its own (moveOnto). */
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

/** Drag data Chrome hands over when it intercepts an HTML5 drag. */
type DragData = {items: Array<{mimeType: string; data: string}>; dragOperationsMask: number};

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
  // The drop target must be where the drop lands (not under an overlay), checked before anything is pressed.
  await actionPoint(page, to, toUid, false, {gets: 'drop'});
  const start = await actionPoint(page, from, fromUid, false, {gets: 'drag'});
  await s.send('Input.setInterceptDrags', {enabled: true});
  const intercepted = deferred<DragData>();
  const off = s.on('Input.dragIntercepted', ({data}) => intercepted.resolve(data as DragData));
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
    const end = await moveOnto(page, to, toUid, start);
    const data = await withTimeout(intercepted.promise, DRAG_START_MS, 'no drag').catch(() => undefined);
    if (data) {
      const drop = await actionPoint(page, to, toUid, false, {hitTest: false});
      for (const type of ['dragEnter', 'dragOver', 'drop'] as const) {
        await s.send('Input.dispatchDragEvent', {type, x: drop.x, y: drop.y, data});
      }
      await release(page, drop);
    } else {
      // A mouse-driven drag (a sortable list) may have reflowed the list under the pointer:
      // the target is no longer where it was. Release where the moves put the pointer, once
      // the page has handled them; moving again to the target's new place would undo the move.
      await pageDrew(to);
      const cover = await dropCover(page, from, to, end);
      if (cover) {
        // Not released onto what appeared: back to the start and released there, where a drag library puts the item back.
        await s.send('Input.dispatchMouseEvent', {
          type: 'mouseMoved',
          x: start.x,
          y: start.y,
          button: 'left',
          buttons: 1,
        });
        await release(page, start);
        throw new Error(
          `The drop point on uid ${toUid} was covered during the drag by another element, ${cover}, which would get the drop instead. The drag went back to its start and was released there. Close or dismiss what is on top (a dialog, menu, overlay or banner), then take a new snapshot.`,
        );
      }
      await release(page, end);
    }
  } finally {
    off();
    await s.trySend('Input.setInterceptDrags', {enabled: false});
  }
}

/**
 * Moves the pressed pointer from `start` onto the target, past its middle
 * (dropPoint), in steps no longer than half the target's size. Returns where
 * the pointer ends.
 */
async function moveOnto(page: Page, to: ResolvedElement, toUid: string, start: Point): Promise<Point> {
  const {end, stride} = await dropPoint(page, to, toUid, start);
  const distance = Math.hypot(end.x - start.x, end.y - start.y);
  const steps = Math.min(MAX_STEPS, Math.max(MIN_STEPS, Math.ceil(distance / Math.max(stride, 1))));
  for (let i = 1; i <= steps; i++) {
    await page.session.send('Input.dispatchMouseEvent', {
      type: 'mouseMoved',
      x: start.x + ((end.x - start.x) * i) / steps,
      y: start.y + ((end.y - start.y) * i) / steps,
      button: 'left',
      buttons: 1,
    });
    // The next move in the next frame, as Chrome delivers moves without the Overlay domain (unbufferedInput.ts
    // turns it on): drag libraries handle a move in a frame or a task after it (SortableJS starts its drag in a
    // timeout and swaps items once per move), so moves sent at once left a list unchanged on a busy machine.
    await framesDrawn(page.session, 1);
  }
  return end;
}

function release(page: Page, at: Point): Promise<unknown> {
  return page.session.send('Input.dispatchMouseEvent', {
    type: 'mouseReleased',
    x: at.x,
    y: at.y,
    button: 'left',
    buttons: 0,
    clickCount: 1,
  });
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
