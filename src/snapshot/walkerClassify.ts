/**
 * What the in-page walk (walker.ts) does with an element: print it itself
 * (a link, button or heading with plain text), collapse it into its parent,
 * keep Chrome's node for it with the walk's children ('c'), or take its whole
 * subtree from Chrome ('q'). rules.ts says why each answer is Chrome's.
 * Serialized into the page with the walker, so `walkerClassify` must stay
 * self-contained.
 */
// Runs in the page, sent whole as one function (the 60-line limit does not apply).
export function walkerClassify(
  rules: {
    containerTags: Set<string>;
    landmarkTags: Set<string>;
    safeAttr: (name: string) => boolean;
    cAttr: (name: string) => boolean;
    safeRoleTokens: (value: string) => boolean;
    linkAttr: (name: string) => boolean;
    buttonAttr: (name: string) => boolean;
    headingAttr: (name: string) => boolean;
    unsafeText: (data: string) => boolean;
  },
  pseudoKind: (el: Element) => number,
  firstLineTransforms: (el: Element, style: CSSStyleDeclaration) => boolean,
  textPlain: (style: CSSStyleDeclaration) => boolean,
  focused: (el: Element) => boolean,
): unknown {
  const WS_ONLY = /^[ \t\n]*$/;

  /** What the walk does with an element: see rules.ts for why each answer is Chrome's. */
  const classify = (el: Element, tag: string, style: CSSStyleDeclaration, display: string): string => {
    const simple = tag === 'a' || tag === 'button' || /^h[1-6]$/.test(tag);
    if (simple) {
      return simpleKind(el, tag, style, display);
    }
    if (tag === 'br' || tag === 'wbr') {
      return 'l';
    }
    if (!rules.containerTags.has(tag)) {
      return 'q';
    }
    let needsChrome = rules.landmarkTags.has(tag);
    for (const attr of el.attributes) {
      const name = attr.name;
      if (rules.safeAttr(name)) {
        continue;
      }
      if (name === 'role') {
        if (!rules.safeRoleTokens(attr.value)) {
          return 'q';
        }
        needsChrome = true;
      } else if (rules.cAttr(name)) {
        needsChrome = true;
      } else {
        return 'q';
      }
    }
    if (style.contentVisibility !== 'visible') {
      return 'q';
    }
    const pseudo = pseudoKind(el);
    if (pseudo === 2) {
      return 'q';
    }
    if (firstLineTransforms(el, style)) {
      return 'q';
    }
    const overflow = style.overflowX + style.overflowY;
    if (
      overflow !== 'visiblevisible' &&
      overflow !== 'clipclip' &&
      overflow !== 'visibleclip' &&
      overflow !== 'clipvisible'
    ) {
      needsChrome = true;
    }
    if (focused(el)) {
      needsChrome = true;
    }
    return needsChrome ? 'c' : 'collapse';
  };

  /** A link, button or heading whose whole content is one plain text node; anything else is Chrome's. */
  const simpleKind = (el: Element, tag: string, style: CSSStyleDeclaration, display: string): string => {
    if (focused(el) || el.shadowRoot) {
      return 'q';
    }
    const allowed = tag === 'a' ? rules.linkAttr : tag === 'button' ? rules.buttonAttr : rules.headingAttr;
    for (const attr of el.attributes) {
      if (!allowed(attr.name)) {
        return 'q';
      }
    }
    if (tag === 'a' && !el.hasAttribute('href')) {
      return 'q';
    }
    if (tag === 'button' && (el as HTMLButtonElement).matches(':disabled')) {
      return 'q';
    }
    if (display === 'contents' || style.contentVisibility !== 'visible') {
      return 'q';
    }
    let text: Text | undefined;
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 8) {
        continue;
      }
      if (c.nodeType !== 3 || text) {
        return 'q';
      }
      text = c as Text;
    }
    if (!text || WS_ONLY.test(text.data) || rules.unsafeText(text.data)) {
      return 'q';
    }
    const title = el.getAttribute('title');
    if (title !== null && rules.unsafeText(title)) {
      return 'q';
    }
    if (!textPlain(style) || pseudoKind(el) !== 0 || firstLineTransforms(el, style)) {
      return 'q';
    }
    if (style.visibility !== 'visible') {
      return 'skip';
    }
    return tag;
  };

  return classify;
}
