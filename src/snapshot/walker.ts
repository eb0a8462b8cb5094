/**
 * The in-page half of the fast snapshot. `installWalker` is serialized with
 * Function.prototype.toString and evaluated once per document in an isolated
 * world (page scripts cannot tamper with the DOM and CSSOM methods it calls),
 * so it must stay self-contained: no imports, no outer references.
 *
 * It walks the flat tree and answers in the page only where the answer is
 * provably Chrome's (rules.ts lists each rule and why it holds). Everything
 * else becomes a placeholder that the server fills from Chrome's own
 * accessibility tree:
 *   c  the element's own AX node comes from Chrome, its children from the walk
 *      (containers whose role Chrome decides but which cannot change how their
 *      children are shown: landmarks, named or focusable containers);
 *   q  the element's whole AX subtree comes from Chrome (controls, media,
 *      embedded frames, editors, anything not whitelisted);
 *   o  like q, but dropped when Chrome moved the element elsewhere (aria-owns);
 *   l  a leaf (text node, line break) whose AX node comes from Chrome;
 *   d  the document: Chrome gives the RootWebArea, the walk its children.
 * Nodes the walk prints itself: e (element: button, link, heading with plain
 * text) and t (text). Containers nothing is printed for are left out and
 * their children hoisted, as the reference's filter does.
 */

/** One node of the walk's answer (short keys: it crosses the protocol as JSON). */
export interface WalkNode {
  /** x: a placeholder Chrome has no node for, replaced by its children (see `expand`). */
  k: 'e' | 't' | 'c' | 'q' | 'o' | 'l' | 'd' | 'x';
  /** Stable id of the DOM node within this document's walker. */
  i: number;
  /** Index into the walker's pending array (placeholders only). */
  x?: number;
  r?: string;
  n?: string;
  p?: Record<string, string | number | boolean>;
  c?: WalkNode[];
  /** A custom element: its internals may set role and state, and it may hide a closed shadow root. */
  ce?: 1;
  /** A big subtree (or one with shadow trees): asked for in one call. */
  b?: 1;
}

export interface WalkResult {
  /** Identifies this walker instance (document and world): its node ids are only valid with it. */
  token: string;
  root: WalkNode;
  /** Placeholders to fetch from Chrome, in `pending` order. */
  count: number;
  /** Index (in the returned nodes) of the first printed node whose backendNodeId the server must ask for. */
  m: number;
  /** The walker ids of those nodes, in order. */
  mi: number[];
  /** How many elements and text nodes the walk visited (the engine's size estimate). */
  n: number;
  /** The document is in a state only Chrome resolves exactly (modal pile-up, designMode...): read its full tree. */
  full?: 1;
}

/** The global the walker lives under (in our isolated world). */
export const WALKER = "globalThis[Symbol.for('cdp-mcp.walker')]";

// Runs in the page, sent whole as one function (the 60-line limit does not apply).
export function installWalker(
  rulesFactory: () => unknown,
  stylesFactory: () => unknown,
  textFactory: (rules: unknown, pseudoKind: unknown, flatChildren: unknown) => unknown,
  classifyFactory: (
    rules: unknown,
    pseudoKind: unknown,
    firstLineTransforms: unknown,
    textPlain: unknown,
    focused: unknown,
  ) => unknown,
): void {
  const KEY = Symbol.for('cdp-mcp.walker');
  const g = globalThis as unknown as Record<symbol, unknown>;
  if (g[KEY]) {
    return;
  }
  // Passed on whole to the text and classification factories, which type what they read.
  const rules = rulesFactory();
  type N = {
    k: string;
    i: number;
    x?: number;
    r?: string;
    n?: string;
    p?: Record<string, string | number | boolean>;
    c?: N[];
    ce?: 1;
    b?: 1;
  };
  const ids = new WeakMap<Node, number>();
  let nextId = 1;
  const token = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  let pending: Node[] = [];
  const HTML = 'http://www.w3.org/1999/xhtml';
  const WS_RUN = /[ \t\n]+/g;

  const idOf = (node: Node): number => {
    let id = ids.get(node);
    if (id === undefined) {
      id = nextId++;
      ids.set(node, id);
    }
    return id;
  };
  const hold = (node: Node, kind: string, out: N[], extra?: Partial<N>): N => {
    const n: N = {k: kind, i: idOf(node), x: pending.length, ...extra};
    pending.push(node);
    out.push(n);
    return n;
  };

  const styles = stylesFactory() as {
    reset(): void;
    pseudoKind(el: Element): number;
    firstLineTransforms(el: Element, style: CSSStyleDeclaration): boolean;
  };
  const pseudoKind = (el: Element) => styles.pseudoKind(el);
  const firstLineTransforms = (el: Element, style: CSSStyleDeclaration) => styles.firstLineTransforms(el, style);

  /**
   * A subtree placeholder, marked `b` when the subtree is big or holds shadow
   * trees: the server then asks for it in one call instead of level by level.
   */
  const BIG_SUBTREE_ELEMENTS = 24;
  const holdSubtree = (el: Element, kind: string, out: N[]) => {
    const big = el.shadowRoot !== null || el.getElementsByTagName('*').length > BIG_SUBTREE_ELEMENTS;
    hold(el, kind, out, big ? {b: 1} : undefined);
  };

  // ------------------------------------------------------------ the walk
  let owned = new Set<Element>();
  let focusChain = new Set<Element>();
  let modal: Element | undefined;
  let modalPath = new Set<Node>();

  const noteOwners = (root: Document | ShadowRoot) => {
    for (const owner of root.querySelectorAll('[aria-owns]')) {
      for (const id of (owner.getAttribute('aria-owns') ?? '').split(/\s+/)) {
        const el = id ? root.getElementById(id) : null;
        if (el) {
          owned.add(el);
        }
      }
    }
  };
  const flatChildren = (node: Node): ArrayLike<Node> => {
    if (node instanceof HTMLSlotElement) {
      const assigned = node.assignedNodes();
      return assigned.length > 0 ? assigned : node.childNodes;
    }
    if (node instanceof Element && node.shadowRoot) {
      noteOwners(node.shadowRoot);
      return node.shadowRoot.childNodes;
    }
    return node.childNodes;
  };

  /** Facts about an element its text children need, read only when a text child asks (most elements hold none). */
  type Parent = {el: Element; style: CSSStyleDeclaration; display: string; plainText?: boolean};
  const text = textFactory(rules, pseudoKind, flatChildren) as {
    textPlain(style: CSSStyleDeclaration): boolean;
    neighbours(kids: ArrayLike<Node>, styles: Map<Node, CSSStyleDeclaration>): (i: number, step: number) => number;
    answer(data: string, parent: Parent, neighbour: (step: number) => number): string | null | undefined;
  };
  const textPlain = (style: CSSStyleDeclaration) => text.textPlain(style);

  const visitChildren = (node: Node, parent: Parent | undefined, out: N[]) => {
    const kids = flatChildren(node);
    const styles = new Map<Node, CSSStyleDeclaration>();
    const neighbour = text.neighbours(kids, styles);
    for (let i = 0; i < kids.length; i++) {
      const kid = kids[i]!;
      if (kid.nodeType === 3) {
        visited++;
        if (parent && modal === undefined) {
          const name = text.answer((kid as Text).data, parent, step => neighbour(i, step));
          if (name === null) {
            hold(kid, 'l', out);
          } else if (name !== undefined) {
            out.push(print(kid, {k: 't', i: idOf(kid), n: name}));
          }
        }
      } else if (kid.nodeType === 1) {
        visitElement(kid as Element, out, styles.get(kid));
      }
    }
  };

  /** Visits one element; returns its computed display ('none' when it takes no part). */
  const visitElement = (el: Element, out: N[], known?: CSSStyleDeclaration): string => {
    if (modal !== undefined && !modalPath.has(el)) {
      return 'none';
    }
    visited++;
    const style = known ?? getComputedStyle(el);
    const display = style.display;
    if (display === 'none') {
      return 'none';
    }
    if (
      el.attributes.length > 0 &&
      ((el.getAttribute('aria-hidden') ?? '').toLowerCase() === 'true' || el.hasAttribute('inert'))
    ) {
      return display;
    }
    const tag = el.localName;
    if (el.namespaceURI !== HTML) {
      holdSubtree(el, 'q', out);
      return display;
    }
    if (owned.has(el)) {
      holdSubtree(el, 'o', out);
      return display;
    }
    if (tag.includes('-')) {
      // Autonomous custom element: Chrome decides its own node; the server checks it changes nothing below.
      const n = hold(el, 'c', out, {ce: 1, c: []});
      visitChildren(el, parentFacts(el, style, display), n.c!);
      return display;
    }
    const kind = classify(el, tag, style, display);
    if (kind === 'collapse') {
      visitChildren(el, parentFacts(el, style, display), out);
    } else if (kind === 'c') {
      const n = hold(el, 'c', out, {c: []});
      visitChildren(el, parentFacts(el, style, display), n.c!);
    } else if (kind === 'q') {
      holdSubtree(el, 'q', out);
    } else if (kind === 'l') {
      hold(el, 'l', out);
    } else if (kind !== 'skip') {
      printSimple(el, tag, kind, out);
    }
    return display;
  };

  const parentFacts = (el: Element, style: CSSStyleDeclaration, display: string): Parent => ({el, style, display});

  /** What the walk does with an element (walkerClassify.ts): see rules.ts for why each answer is Chrome's. */
  const classify = classifyFactory(rules, pseudoKind, firstLineTransforms, textPlain, (el: Element) =>
    focusChain.has(el),
  ) as (el: Element, tag: string, style: CSSStyleDeclaration, display: string) => string;

  const printSimple = (el: Element, tag: string, kind: string, out: N[]) => {
    let text = el.firstChild;
    while (text && text.nodeType !== 3) {
      text = text.nextSibling;
    }
    if (!text) {
      return;
    }
    const name = (text as Text).data.replace(WS_RUN, ' ').trim();
    const i = idOf(el);
    // A title is the description unless it says what the name says (Chrome collapses its white space).
    const title = (el.getAttribute('title') ?? '').replace(/[ \t\n]+/g, ' ').trim();
    const p: Record<string, string | number> = title && title !== name ? {description: title} : {};
    if (kind === 'button') {
      out.push(print(el, {k: 'e', i, r: 'button', n: name, p}));
    } else if (kind === 'a') {
      p['url'] = (el as HTMLAnchorElement).href;
      const child = print(text, {k: 't', i: idOf(text), n: name});
      out.push(print(el, {k: 'e', i, r: 'link', n: name, p, c: [child]}));
    } else {
      p['level'] = Number(tag.slice(1));
      out.push(print(el, {k: 'e', i, r: 'heading', n: name, p}));
    }
  };

  /** Ids of printed nodes whose backendNodeId the server knows (it says so with the next walk). */
  let known = new Set<number>();
  /** Nodes the walk itself printed (e, t), in walk order. */
  let printed: Node[] = [];
  const print = (node: Node, n: N): N => {
    printed.push(node);
    return n;
  };

  /**
   * The walk's answer, the DOM nodes of its placeholders and the printed
   * nodes the server does not know the backendNodeId of yet (it asks Chrome:
   * uids are keyed by it), in one array: one round trip for all of it.
   * `confirmed`: ids whose backendNodeId the server learnt after the last walk.
   */
  const walk = (confirmed: number[]): unknown[] => {
    for (const id of confirmed) {
      known.add(id);
    }
    const json = walkJson();
    const unmapped = printed.filter(node => !known.has(ids.get(node)!));
    const stillThere = new Set<number>();
    for (const node of printed) {
      const id = ids.get(node)!;
      if (known.has(id)) {
        stillThere.add(id);
      }
    }
    known = stillThere;
    const result = JSON.parse(json) as {m?: number; mi?: number[]; n?: number};
    result.n = visited;
    result.m = pending.length;
    result.mi = unmapped.map(node => ids.get(node)!);
    return [JSON.stringify(result), ...pending, ...unmapped];
  };
  let visited = 0;
  const walkJson = (): string => {
    visited = 0;
    pending = [];
    printed = [];
    styles.reset();
    owned = new Set();
    focusChain = new Set();
    modal = undefined;
    modalPath = new Set();
    const doc = document;
    const root: N = {k: 'd', i: idOf(doc), x: 0, c: []};
    pending.push(doc);
    const html = doc.documentElement;
    if (!html) {
      return JSON.stringify({token, root, count: pending.length});
    }
    for (let a: Element | null = doc.activeElement; a; a = a.shadowRoot?.activeElement ?? null) {
      focusChain.add(a);
    }
    const modals = doc.querySelectorAll(':modal');
    const body = doc.body;
    const risky =
      doc.designMode === 'on' ||
      modals.length > 1 ||
      (modals.length === 1 && modals[0]!.localName !== 'dialog') ||
      !body ||
      [html, body].some(el => el.hasAttribute('aria-hidden') || el.hasAttribute('inert'));
    if (risky) {
      // Whole-document states only Chrome resolves exactly: the engine reads this frame's full tree.
      return JSON.stringify({token, root, count: pending.length, full: 1});
    }
    if (modals.length === 1) {
      // A modal dialog makes everything outside it inert (HTML: "blocked by a modal dialog"): walk only
      // the boxes on the way to it (in the flat tree).
      modal = modals[0]!;
      for (let n: Node | null = modal; n;) {
        modalPath.add(n);
        const slot: HTMLSlotElement | null = n instanceof Element || n instanceof Text ? n.assignedSlot : null;
        n = slot ?? (n.parentNode instanceof ShadowRoot ? n.parentNode.host : n.parentNode);
      }
    }
    noteOwners(doc);
    visitElement(html, root.c!);
    return JSON.stringify({token, root, count: pending.length});
  };

  /**
   * Chrome keeps no node of its own for some elements (inline wrappers without
   * meaning: <a> without href, <picture>, plain <span>s...); their children
   * sit directly in the parent's node. For such placeholders the server asks
   * for the children instead: every element child as a subtree, every text
   * child as a leaf (the walk's own rules are not applied below an element it
   * did not understand).
   */
  const expand = (xs: number[]): unknown[] => {
    const start = pending.length;
    const lists: N[][] = [];
    for (const x of xs) {
      const list: N[] = [];
      const node = pending[x];
      if (node) {
        const kids = flatChildren(node);
        for (let i = 0; i < kids.length; i++) {
          const kid = kids[i]!;
          if (kid.nodeType === 1) {
            hold(kid, 'q', list);
          } else if (kid.nodeType === 3 && (kid as Text).data) {
            hold(kid, 'l', list);
          }
        }
      }
      lists.push(list);
    }
    return [JSON.stringify({lists, start}), ...pending.slice(start)];
  };

  g[KEY] = {token, walk, expand};
}
