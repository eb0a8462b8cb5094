/**
 * Where a pointer action lands, across frames: the element's content quad in
 * its own frame session (an out-of-process iframe has its own), the offset of
 * every frame up to the page, whether the point is inside every viewport on
 * the way, and what Chrome's hit test finds there at every level. Input
 * events go to the page session in top-level coordinates, so a wrong offset
 * or a covered point would click something else while reporting success.
 */
import type {Page, ResolvedElement} from '../browser/core/Page.js';
import type {CdpSession} from '../cdp/CdpConnection.js';
import {debug} from '../util/logger.js';

export interface Point {
  x: number;
  y: number;
}

/** One frame boundary between the element and the page: the frame's owner element in its parent's session. */
export interface FrameLevel {
  /** Session of the document that embeds the frame. */
  parent: CdpSession;
  /** The `<iframe>` (or `<frame>`) element in the parent. */
  owner: number;
  /** The frame's viewport (the owner's content box) in the parent's viewport coordinates. */
  box: {x: number; y: number; width: number; height: number};
  /** The owner's border box origin (DOM.scrollIntoViewIfNeeded rects are relative to it). */
  border: Point;
  /** Scroll offset of the parent's document (hit tests take document coordinates). */
  parentScroll: Point;
}

export interface Located {
  /** Where to dispatch, in top-level page coordinates. */
  point: Point;
  /** The same point in the element's own frame session. */
  local: Point;
  /** Frame boundaries, innermost first (empty for the page's own process). */
  chain: FrameLevel[];
  /** Whether the point is inside the viewport of every frame on the way up and of the page. */
  inView: boolean;
  /** Scroll offset of the element's frame session document. */
  scroll: Point;
  /** The element's DOM node, to recognise it in a hit test without a round trip to the page. */
  backendNodeId: number | undefined;
}

/** Deepest frame nesting we follow (as the snapshot). */
const MAX_FRAME_DEPTH = 10;
const HIT_GROUP = 'cdp-mcp-hit';

/** The frame boundaries from `session` up to the page session, innermost first. */
export async function frameChain(page: Page, session: CdpSession): Promise<FrameLevel[]> {
  const chain: FrameLevel[] = [];
  let current = session;
  for (let depth = 0; current !== page.session && depth < MAX_FRAME_DEPTH; depth++) {
    const entry = page.frames.bySession(current);
    if (!entry) {
      throw new Error('The frame of this element is gone (it navigated or was removed). Take a new snapshot.');
    }
    const {backendNodeId} = await entry.parent.send('DOM.getFrameOwner', {frameId: current.targetId});
    const [{model}, parentScroll] = await Promise.all([
      entry.parent.send('DOM.getBoxModel', {backendNodeId}),
      scrollOffset(entry.parent),
    ]);
    chain.push({
      parent: entry.parent,
      owner: backendNodeId,
      box: {
        x: model.content[0] ?? 0,
        y: model.content[1] ?? 0,
        width: Math.abs((model.content[2] ?? 0) - (model.content[0] ?? 0)),
        height: Math.abs((model.content[5] ?? 0) - (model.content[1] ?? 0)),
      },
      border: {x: model.border[0] ?? 0, y: model.border[1] ?? 0},
      parentScroll,
    });
    current = entry.parent;
  }
  return chain;
}

/** Centre of the first content quad with an area (a 1x1 px one counts), in the quads' own coordinates. */
function quadCentre(quads: number[][]): Point | undefined {
  for (const quad of quads) {
    const xs = [quad[0], quad[2], quad[4], quad[6]] as number[];
    const ys = [quad[1], quad[3], quad[5], quad[7]] as number[];
    // Shoelace formula: skip degenerate quads.
    let area = 0;
    for (let i = 0; i < 4; i++) {
      const j = (i + 1) % 4;
      area += (xs[i] as number) * (ys[j] as number) - (xs[j] as number) * (ys[i] as number);
    }
    if (Math.abs(area) / 2 > 0) {
      return {x: xs.reduce((a, b) => a + b, 0) / 4, y: ys.reduce((a, b) => a + b, 0) / 4};
    }
  }
  return undefined;
}

const inside = (p: Point, box: {x: number; y: number; width: number; height: number}) =>
  p.x >= box.x && p.y >= box.y && p.x < box.x + box.width && p.y < box.y + box.height;

/**
 * The point to act at: the centre of the element's first visible content
 * quad, mapped through every frame to top-level coordinates. Undefined when
 * the element has no box.
 */
export async function locate(page: Page, element: ResolvedElement): Promise<Located | undefined> {
  const inPage = element.session === page.session;
  const [{quads}, chain, metrics, frameScroll, backendNodeId] = await Promise.all([
    element.session.send('DOM.getContentQuads', {objectId: element.objectId}),
    inPage ? Promise.resolve([]) : frameChain(page, element.session),
    page.session.send('Page.getLayoutMetrics'),
    inPage ? undefined : scrollOffset(element.session),
    element.backendNodeId ??
      element.session
        .send('DOM.describeNode', {objectId: element.objectId})
        .then(({node}) => node.backendNodeId)
        .catch(() => undefined),
  ]);
  const local = quadCentre(quads);
  if (!local) {
    return undefined;
  }
  let point = local;
  let inView = true;
  for (const level of chain) {
    // The point must be inside this frame's viewport to be visible at all.
    inView &&= inside(point, {x: 0, y: 0, width: level.box.width, height: level.box.height});
    point = {x: point.x + level.box.x, y: point.y + level.box.y};
  }
  const viewport = metrics.cssVisualViewport;
  inView &&= inside(point, {x: 0, y: 0, width: viewport.clientWidth, height: viewport.clientHeight});
  // The page's own scroll comes with its layout metrics: no extra round trip for the common case.
  const scroll = frameScroll ?? {x: viewport.pageX, y: viewport.pageY};
  return {point, local, chain, inView, scroll, backendNodeId};
}

/**
 * In the page: whether `cover` (the element on top of `el` at its centre) is
 * part of the same control, drawn over it by the widget: a select's
 * placeholder or value over its input, a floating label, an icon. It is when
 * it names the control (its placeholder, its aria-labelledby), or when the
 * nearest interactive or labelled ancestor of `el` (the widget's root: a
 * native control, a widget role, tabindex, onclick, aria-haspopup, a label, a
 * custom element) is also the nearest one of `cover`, and that root is about
 * the control's size (a dialog, a form or the page around both is not). A
 * modal, a banner, a toast or another widget's element never qualifies.
 */
const SAME_CONTROL = `(el, cover, box) => {
  const ROLES = /^(button|checkbox|combobox|gridcell|link|listbox|menuitem|menuitemcheckbox|menuitemradio|option|radio|searchbox|slider|spinbutton|switch|tab|textbox|treeitem)$/;
  const NATIVE = ['a', 'button', 'input', 'label', 'option', 'select', 'summary', 'textarea'];
  const doc = el.ownerDocument;
  const up = n => n.assignedSlot || n.parentNode || n.host || null;
  const isControl = n => {
    if (n.nodeType !== 1 || n === doc.body || n === doc.documentElement) return false;
    if (NATIVE.includes(n.localName) || n.localName.includes('-')) return true;
    const role = (n.getAttribute('role') || '').trim().split(/\\s+/)[0];
    return ROLES.test(role) || ['tabindex', 'onclick', 'aria-haspopup', 'aria-label', 'aria-labelledby'].some(a => n.hasAttribute(a));
  };
  const controlOf = start => {
    for (let n = start; n && n !== doc.body && n !== doc.documentElement; n = up(n)) {
      if (isControl(n)) return n;
    }
    return null;
  };
  const text = (cover.textContent || '').replace(/\\s+/g, ' ').trim();
  const placeholder = (el.getAttribute('placeholder') || el.getAttribute('aria-placeholder') || '').trim();
  if (placeholder && text === placeholder) return true;
  const labelledBy = (el.getAttribute('aria-labelledby') || '').split(/\\s+/).filter(Boolean);
  for (let n = cover; n && n.nodeType === 1; n = up(n)) {
    if (n.id && labelledBy.includes(n.id)) return true;
  }
  const root = controlOf(up(el));
  if (!root || controlOf(cover) !== root) return false;
  const outer = root.getBoundingClientRect();
  const height = Math.max(box.height, 16);
  const area = Math.max(box.width * box.height, 1024);
  return outer.height <= Math.max(4 * height, height + 48) && outer.width * outer.height <= 16 * area;
}`;

/**
 * In the element's world: is `hit` (what the hit test found) the element, a
 * shadow-including descendant of it, or its label? An ancestor counts only
 * when the element itself lets pointer events through. Returns null then;
 * else what is on top: `{cover, same}`, where `same` says that the node on
 * top is part of the element's own control (see SAME_CONTROL), so a click
 * there is what a user's click on the control does.
 * Page-side script sent as one function (over the 60-line limit on purpose).
 */
const CHECK_HIT = `function(hit) {
  const el = this;
  // Shadow-including and flat-tree (slot) ancestry: slotted light-DOM content renders inside the slot.
  const within = (outer, node) => {
    for (let n = node; n; n = n.parentNode || n.host) { if (n === outer) return true; }
    for (let n = node; n; n = n.assignedSlot || n.parentNode || n.host) { if (n === outer) return true; }
    return false;
  };
  if (within(el, hit)) return null;
  // A generated box (::before, ::after, ::marker) has no DOM parent to compare: it is inconclusive.
  if (!hit.parentNode && hit.nodeType !== 9 && hit.nodeType !== 11) return null;
  const hitElement = hit.nodeType === 1 ? hit : hit.parentElement;
  const label = hitElement && hitElement.closest('label');
  if (label && label.control === el) return null;
  if (el.localName === 'label' && el.control && within(el.control, hit)) return null;
  if (within(hit, el) && getComputedStyle(el).pointerEvents === 'none') return null;
  // Chrome reports a hit on text as the text's DOM parent: for text slotted into the element
  // (a web component's inner button showing its host's text), that is a shadow host around it.
  for (let root = el.getRootNode(); root instanceof ShadowRoot; root = root.host.getRootNode()) {
    if (root.host === hit) return null;
  }
  // A control that is invisible by design (a code editor's textarea, a styled checkbox's input)
  // is used through what is drawn over it: a user clicks there too.
  const style = getComputedStyle(el);
  const box = el.getBoundingClientRect();
  if (style.opacity === '0' || box.width * box.height <= 4) return null;
  if (!hitElement) return {cover: 'a text node', same: false};
  const cls = typeof hitElement.className === 'string' && hitElement.className.trim() ? ' class="' + hitElement.className.trim().split(/\\s+/).slice(0, 3).join(' ') + '"' : '';
  const id = hitElement.id ? ' id="' + hitElement.id + '"' : '';
  const text = (hitElement.innerText || hitElement.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 40);
  return {cover: '<' + hitElement.localName + id + cls + '>' + (text ? ' "' + text + '"' : ''), same: (${SAME_CONTROL})(el, hitElement, box)};
}`;

/** Short description of the element on top, for an owner-level hit (a frame covered in its parent). */
const DESCRIBE = `function() {
  const el = this.nodeType === 1 ? this : this.parentElement;
  if (!el) return 'a text node';
  const cls = typeof el.className === 'string' && el.className.trim() ? ' class="' + el.className.trim().split(/\\s+/).slice(0, 3).join(' ') + '"' : '';
  return '<' + el.localName + (el.id ? ' id="' + el.id + '"' : '') + cls + '>';
}`;

async function describeNode(session: CdpSession, backendNodeId: number): Promise<string> {
  try {
    const {object} = await session.send('DOM.resolveNode', {backendNodeId, objectGroup: HIT_GROUP});
    if (!object.objectId) {
      return 'another element';
    }
    const {result} = await session.send('Runtime.callFunctionOn', {
      objectId: object.objectId,
      functionDeclaration: DESCRIBE,
      returnByValue: true,
    });
    return typeof result.value === 'string' ? result.value : 'another element';
  } catch {
    return 'another element';
  } finally {
    void session.trySend('Runtime.releaseObjectGroup', {objectGroup: HIT_GROUP});
  }
}

/**
 * The scroll offset of a session's local root document: DOM.getNodeForLocation
 * takes document coordinates (viewport point plus scroll), and only finds
 * nodes inside the visible part of the viewport.
 */
export async function scrollOffset(session: CdpSession): Promise<Point> {
  const {result} = await session.send('Runtime.evaluate', {expression: '[scrollX, scrollY]', returnByValue: true});
  const [x, y] = Array.isArray(result.value) ? (result.value as number[]) : [0, 0];
  return {x: x ?? 0, y: y ?? 0};
}

/** Chrome's hit test at a viewport point of a session's local root whose document is scrolled by `scroll`. */
export async function nodeAt(session: CdpSession, point: Point, scroll: Point): Promise<number> {
  const hit = await session.send('DOM.getNodeForLocation', {
    x: Math.floor(point.x + scroll.x),
    y: Math.floor(point.y + scroll.y),
    includeUserAgentShadowDOM: false,
    ignorePointerEventsNone: false,
  });
  return hit.backendNodeId;
}

/** What Chrome's hit test found on top of the element at the action point. */
export interface Cover {
  /** Short description of the node on top (tag, id, classes, text). */
  description: string;
  /** It is part of the element's own control (a select's placeholder, a floating label): acting there is fine. */
  sameControl: boolean;
}

/**
 * Chrome's hit test (DOM.getNodeForLocation) at the point, at every level:
 * in the element's frame it must find the element (or a descendant, or its
 * label), and in every parent the frame's owner. Returns undefined when the
 * action will land on the element, else what is on top. `askedAhead`: the
 * element's own hit test at this point, sent before (hitAhead.ts).
 */
export async function coveringElement(
  element: ResolvedElement,
  located: Located,
  askedAhead?: Promise<number | undefined>,
): Promise<Cover | undefined> {
  const session = element.session;
  // The levels are independent: ask them all at once.
  const levels = located.chain.map(async (level, index) => {
    let p = located.local;
    for (let i = 0; i <= index; i++) {
      const box = located.chain[i]?.box;
      p = {x: p.x + (box?.x ?? 0), y: p.y + (box?.y ?? 0)};
    }
    const hit = await nodeAt(level.parent, p, level.parentScroll);
    if (hit === level.owner) {
      return undefined;
    }
    debug(`hit test: frame owner ${level.owner} not at (${p.x}, ${p.y}) in its parent (found node ${hit})`);
    return {description: await describeNode(level.parent, hit), sameControl: false};
  });
  const own = (async () => {
    const hit = (await askedAhead) ?? (await nodeAt(session, located.local, located.scroll));
    // Chrome reports a hit on text as its parent: a button hit on its label is the button itself.
    if (located.backendNodeId !== undefined && hit === located.backendNodeId) {
      return undefined;
    }
    try {
      const {object} = await session.send('DOM.resolveNode', {backendNodeId: hit, objectGroup: HIT_GROUP});
      const {result, exceptionDetails} = await session.send('Runtime.callFunctionOn', {
        objectId: element.objectId,
        functionDeclaration: CHECK_HIT,
        arguments: [{objectId: object.objectId}],
        returnByValue: true,
      });
      if (exceptionDetails) {
        // Another JavaScript world than the element's: nothing to compare with, so do not block.
        debug('hit check failed', exceptionDetails.text);
        return undefined;
      }
      const value = result.value as {cover: string; same: boolean} | null | undefined;
      return value ? {description: value.cover, sameControl: value.same} : undefined;
    } finally {
      void session.trySend('Runtime.releaseObjectGroup', {objectGroup: HIT_GROUP});
    }
  })();
  // What covers an outer frame is what the user sees on top: report the outermost level first.
  const results = await Promise.all([...levels.reverse(), own]);
  return results.find(r => r !== undefined);
}

/** Size of the rectangle kept in view around the action point when scrolling frames, in CSS px. */
const SCROLL_RECT_PX = 16;

/**
 * Scrolls every frame on the way up so that the point is inside its parent's
 * viewport: for when Chrome's own scroll-into-view did not reach across a
 * process boundary.
 */
export async function scrollFramesToPoint(located: Located): Promise<void> {
  let p = located.local;
  for (const level of located.chain) {
    p = {x: p.x + level.box.x, y: p.y + level.box.y};
    await level.parent.trySend('DOM.scrollIntoViewIfNeeded', {
      backendNodeId: level.owner,
      rect: {
        x: p.x - level.border.x - SCROLL_RECT_PX / 2,
        y: p.y - level.border.y - SCROLL_RECT_PX / 2,
        width: SCROLL_RECT_PX,
        height: SCROLL_RECT_PX,
      },
    });
  }
}
