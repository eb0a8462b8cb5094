/**
 * Text nodes for the in-page walk (walker.ts): which ones Chrome prints and
 * with what name, where that follows from CSS alone. Serialized into the page
 * with the walker, so `walkerText` must stay self-contained.
 *
 * Chrome names a text node with its rendered text. Within a run of text,
 * collapsible white space becomes one space; at a line's start or end it is
 * removed. A line provably starts or ends next to an in-flow block-level box
 * and at the edge of a block container without generated content; next to
 * inline content it depends on layout (line breaks, what the neighbour ends
 * or starts with), so such text is left to Chrome. White-space-only text has
 * no box inside flex, grid and table boxes (CSS), and none at a line's start
 * or end; elsewhere Chrome decides.
 */
// Runs in the page, sent whole as one function (the 60-line limit does not apply).
export function walkerText(
  rules: {
    unsafeText(data: string): boolean;
    blockContainer(display: string): boolean;
    noWhitespaceChildren(display: string): boolean;
    blockLevel(display: string): boolean;
  },
  pseudoKind: (el: Element) => number,
  flatChildren: (node: Node) => ArrayLike<Node>,
): unknown {
  const WS_ONLY = /^[ \t\n]*$/;
  const WS_RUN = /[ \t\n]+/g;
  /**
   * How a child takes part in its parent's line layout, as far as white space
   * next to it is concerned: SKIP (no box: comments, display none, empty text),
   * BLOCK (an in-flow block-level box: lines end before it and start after
   * it), INLINE (inline content), UNKNOWN (out-of-flow boxes, white-space-only
   * text: what is around them decides). display: contents is transparent.
   */
  const SKIP = 0;
  const BLOCK = 1;
  const INLINE = 2;
  const UNKNOWN = 3;
  /** No sibling with a box on that side. */
  const EDGE = -1;

  const styleOf = (el: Element, styles: Map<Node, CSSStyleDeclaration>): CSSStyleDeclaration => {
    let style = styles.get(el);
    if (!style) {
      style = getComputedStyle(el);
      styles.set(el, style);
    }
    return style;
  };
  /** The flow of a child seen from one side (step -1: its last box, +1: its first). */
  const flowOf = (kid: Node, styles: Map<Node, CSSStyleDeclaration>, step: number, depth = 0): number => {
    if (kid.nodeType === 3) {
      const data = (kid as Text).data;
      return !data ? SKIP : WS_ONLY.test(data) ? UNKNOWN : INLINE;
    }
    if (kid.nodeType !== 1) {
      return SKIP;
    }
    const style = styleOf(kid as Element, styles);
    const display = style.display;
    if (display === 'none') {
      return SKIP;
    }
    if (display === 'contents') {
      if (depth > 8 || pseudoKind(kid as Element) !== 0) {
        return UNKNOWN;
      }
      const inner = flatChildren(kid);
      for (let j = step > 0 ? 0 : inner.length - 1; j >= 0 && j < inner.length; j += step) {
        const f = flowOf(inner[j]!, styles, step, depth + 1);
        if (f !== SKIP) {
          return f;
        }
      }
      return SKIP;
    }
    if (style.float !== 'none' || style.position === 'absolute' || style.position === 'fixed') {
      return UNKNOWN;
    }
    return rules.blockLevel(display) ? BLOCK : INLINE;
  };

  /** For one parent's children: the flow of the nearest sibling with a box before (-1) or after (+1) child i. */
  const neighbours = (kids: ArrayLike<Node>, styles: Map<Node, CSSStyleDeclaration>) => (i: number, step: number) => {
    for (let j = i + step; j >= 0 && j < kids.length; j += step) {
      const f = flowOf(kids[j]!, styles, step);
      if (f !== SKIP) {
        return f;
      }
    }
    return EDGE;
  };

  /** Facts about an element its text children need, read only when a text child asks (most elements hold none). */
  type Parent = {el: Element; style: CSSStyleDeclaration; display: string; plainText?: boolean};

  /** Text whose rendered form is its DOM text up to white space: no case change, collapsible white space, not masked. */
  const textPlain = (style: CSSStyleDeclaration): boolean => {
    if (style.textTransform !== 'none' || style.whiteSpaceCollapse !== 'collapse') {
      return false;
    }
    const security = (style as unknown as {webkitTextSecurity?: string}).webkitTextSecurity;
    return security === undefined || security === 'none';
  };

  const edgeRemoved = (parent: Parent, side: number): boolean =>
    side === BLOCK || (side === EDGE && rules.blockContainer(parent.display) && pseudoKind(parent.el) === 0);
  /** An inside list marker that is an image keeps the space after it: leave those to Chrome. */
  const listMarkerOutside = (parent: Parent): boolean =>
    parent.display !== 'list-item' ||
    parent.style.listStylePosition === 'outside' ||
    parent.style.listStyleImage === 'none';

  /**
   * What the walk does with a text node: undefined (Chrome shows nothing
   * for it), null (ask Chrome) or the name Chrome gives it.
   */
  const answer = (data: string, parent: Parent, neighbour: (step: number) => number): string | null | undefined => {
    if (!data || parent.style.visibility !== 'visible') {
      return undefined;
    }
    if (!(parent.plainText ??= textPlain(parent.style)) || rules.unsafeText(data)) {
      return null;
    }
    const before = /^[ \t\n]/.test(data);
    const after = /[ \t\n]$/.test(data);
    if (!before && !after) {
      return data.replace(WS_RUN, ' ');
    }
    const prev = neighbour(-1);
    const next = neighbour(1);
    if (WS_ONLY.test(data)) {
      const removed =
        rules.noWhitespaceChildren(parent.display) || edgeRemoved(parent, prev) || edgeRemoved(parent, next);
      return removed ? undefined : null;
    }
    const startRemoved = !before || (edgeRemoved(parent, prev) && listMarkerOutside(parent));
    const endRemoved = !after || edgeRemoved(parent, next);
    return startRemoved && endRemoved ? data.replace(WS_RUN, ' ').trim() : null;
  };

  return {textPlain, neighbours, answer};
}
