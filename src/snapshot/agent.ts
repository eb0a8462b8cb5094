/**
 * The in-page half of the snapshot. `installSnapshotAgent` is serialized with
 * Function.prototype.toString and evaluated once per document in our isolated
 * world, so it must stay self-contained (no imports, no outer references).
 *
 * It walks the flat tree (open shadow roots, slots, same-origin iframes) and
 * computes, for the nodes that Chrome's accessibility tree would expose and
 * that the reference's non-verbose filter would keep, the role, name and
 * properties as Chrome reports them. This replaces
 * Accessibility.getFullAXTree, whose cost grows with every node of the page
 * (tens of thousands of InlineTextBox nodes serialized, then thrown away).
 *
 * Each emitted node carries a per-document id (a WeakMap counter), stable
 * while the node lives, which the server turns into uids.
 */

/** One node as the agent returns it (kept short: it crosses the protocol as JSON). */
export interface AgentNode {
  /** Role as Chrome names it. */
  r: string;
  /** Accessible name. */
  n: string;
  /** Serialized properties (as the reference's serializer would produce them). */
  p?: Record<string, string | number | boolean>;
  /** Stable id of the DOM node within this agent. */
  i: number;
  c?: AgentNode[];
  /** An iframe whose document the agent cannot reach (cross-origin or another process). */
  f?: 1;
  /** A node whose subtree lives in a user-agent shadow root: fetch it from the AX tree. */
  o?: 1;
}

export interface AgentSnapshot {
  /** Identifies this agent instance (one per document and world): part of every node's key. */
  token: string;
  root: AgentNode;
}

export interface SnapshotAgent {
  token: string;
  snapshot(): AgentSnapshot;
  /** The node of the latest snapshot with this id, or null when it is gone. Text nodes give their parent element. */
  get(id: number): Element | null;
  /** Index of the document the node belongs to (same-origin frames walked from here get their own). */
  docOf(id: number): number;
}

export const AGENT_KEY = 'cdp-mcp.snapshot';

export function installSnapshotAgent(): void {
  const KEY = Symbol.for('cdp-mcp.snapshot');
  const g = globalThis as unknown as Record<symbol, unknown>;
  if (g[KEY]) {
    return;
  }
  type Rec = {r: string; n: string; p?: Record<string, string | number | boolean>; i: number; c?: Rec[]; f?: 1; o?: 1};
  type Visit = {out: Rec[]; foc: boolean; any: boolean};
  const NONE: Visit = {out: [], foc: false, any: false};

  const ids = new WeakMap<Node, number>();
  const docs = new WeakMap<Document, number>();
  let live = new Map<number, Node>();
  let nextId = 1;
  let nextDoc = 1;
  const token = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

  const idOf = (node: Node): number => {
    let id = ids.get(node);
    if (id === undefined) {
      id = nextId++;
      ids.set(node, id);
    }
    live.set(id, node);
    return id;
  };

  const LANDMARKS = new Set([
    'banner',
    'complementary',
    'contentinfo',
    'form',
    'main',
    'navigation',
    'region',
    'search',
  ]);
  const CONTROLS = new Set([
    'button',
    'checkbox',
    'ColorWell',
    'combobox',
    'DisclosureTriangle',
    'listbox',
    'menu',
    'menubar',
    'menuitem',
    'menuitemcheckbox',
    'menuitemradio',
    'radio',
    'scrollbar',
    'searchbox',
    'slider',
    'spinbutton',
    'switch',
    'tab',
    'textbox',
    'tree',
    'treeitem',
  ]);
  const LEAF_ROLES = new Set([
    'doc-cover',
    'graphics-symbol',
    'img',
    'image',
    'Meter',
    'scrollbar',
    'slider',
    'separator',
    'progressbar',
  ]);
  const NAME_FROM_CONTENT = new Set([
    'button',
    'cell',
    'checkbox',
    'columnheader',
    'DisclosureTriangle',
    'gridcell',
    'heading',
    'link',
    'menuitem',
    'menuitemcheckbox',
    'menuitemradio',
    'option',
    'radio',
    'row',
    'rowheader',
    'switch',
    'tab',
    'tooltip',
    'treeitem',
    'term',
    'caption',
    'Abbr',
    'code',
    'comment',
    'definition',
    'deletion',
    'emphasis',
    'insertion',
    'mark',
    'strong',
    'subscript',
    'superscript',
    'time',
    'sectionheader',
    'sectionfooter',
    'LabelText',
    'legend',
  ]);
  const ARIA_ROLES = new Set([
    'alert',
    'alertdialog',
    'application',
    'article',
    'banner',
    'blockquote',
    'button',
    'caption',
    'cell',
    'checkbox',
    'code',
    'columnheader',
    'combobox',
    'comment',
    'complementary',
    'contentinfo',
    'definition',
    'deletion',
    'dialog',
    'directory',
    'document',
    'emphasis',
    'feed',
    'figure',
    'form',
    'generic',
    'grid',
    'gridcell',
    'group',
    'heading',
    'img',
    'image',
    'insertion',
    'link',
    'list',
    'listbox',
    'listitem',
    'log',
    'main',
    'mark',
    'marquee',
    'math',
    'menu',
    'menubar',
    'menuitem',
    'menuitemcheckbox',
    'menuitemradio',
    'meter',
    'navigation',
    'none',
    'note',
    'option',
    'paragraph',
    'presentation',
    'progressbar',
    'radio',
    'radiogroup',
    'region',
    'row',
    'rowgroup',
    'rowheader',
    'scrollbar',
    'search',
    'searchbox',
    'sectionfooter',
    'sectionheader',
    'separator',
    'slider',
    'spinbutton',
    'status',
    'strong',
    'subscript',
    'suggestion',
    'superscript',
    'switch',
    'tab',
    'table',
    'tablist',
    'tabpanel',
    'term',
    'textbox',
    'time',
    'timer',
    'toolbar',
    'tooltip',
    'tree',
    'treegrid',
    'treeitem',
  ]);
  const DEFAULT_ORIENTATION: Record<string, string> = {
    slider: 'horizontal',
    scrollbar: 'vertical',
    separator: 'horizontal',
    listbox: 'vertical',
    menu: 'vertical',
    menubar: 'horizontal',
    tablist: 'horizontal',
    toolbar: 'horizontal',
    tree: 'vertical',
    treegrid: 'vertical',
  };
  const IMPLICIT_LIVE: Record<string, string> = {
    alert: 'assertive',
    status: 'polite',
    log: 'polite',
    marquee: 'off',
    timer: 'off',
  };
  const SKIP_TAGS = new Set([
    'script',
    'style',
    'template',
    'head',
    'title',
    'meta',
    'link',
    'noscript',
    'base',
    'datalist',
  ]);
  const GLOBAL_ARIA = [
    'aria-label',
    'aria-labelledby',
    'aria-describedby',
    'aria-live',
    'aria-owns',
    'aria-controls',
    'aria-details',
    'aria-errormessage',
    'aria-roledescription',
    'aria-keyshortcuts',
  ];
  const OPAQUE_INPUTS = new Set(['date', 'datetime-local', 'month', 'week', 'time']);
  const SECTIONING = 'article,aside,main,nav,section';

  const collapse = (s: string) => s.replace(/[ \t\n\r\f]+/g, ' ');
  const clean = (s: string) => collapse(s).trim();
  const isBlockDisplay = (d: string) =>
    d !== 'inline' && d !== 'contents' && !d.startsWith('inline') && d !== 'ruby' && d !== 'ruby-text' && d !== 'none';

  const styleOf = (el: Element) => getComputedStyle(el);

  const rootOf = (el: Element): Document | ShadowRoot => el.getRootNode() as Document | ShadowRoot;
  const byIds = (el: Element, attr: string): Element[] => {
    const value = el.getAttribute(attr);
    if (!value) {
      return [];
    }
    const root = rootOf(el);
    const out: Element[] = [];
    for (const id of value.trim().split(/\s+/)) {
      const target = root.getElementById ? root.getElementById(id) : null;
      if (target) {
        out.push(target);
      }
    }
    return out;
  };

  const isHiddenForName = (el: Element): boolean => {
    if (el.getAttribute('aria-hidden') === 'true') {
      return true;
    }
    const cs = styleOf(el);
    return cs.display === 'none' || cs.visibility === 'hidden' || cs.visibility === 'collapse';
  };

  const inputType = (el: Element) => (el as HTMLInputElement).type;

  function explicitRole(el: Element): string | undefined {
    const attr = el.getAttribute('role');
    if (!attr) {
      return undefined;
    }
    for (const token of attr.trim().toLowerCase().split(/\s+/)) {
      if (ARIA_ROLES.has(token)) {
        if (token === 'none' || token === 'presentation') {
          // Presentational roles yield to focusability and global ARIA attributes.
          if (isFocusable(el) || GLOBAL_ARIA.some(a => el.hasAttribute(a))) {
            return undefined;
          }
          return 'none';
        }
        if (token === 'img') {
          return 'image';
        }
        if (token === 'directory') {
          return 'list';
        }
        if (token === 'region' && !hasAriaName(el)) {
          return 'generic';
        }
        return token;
      }
    }
    return undefined;
  }

  const hasAriaName = (el: Element) =>
    Boolean(
      el.getAttribute('aria-label')?.trim() || byIds(el, 'aria-labelledby').length || el.getAttribute('title')?.trim(),
    );

  function nativeRole(el: Element, tag: string): string {
    switch (tag) {
      case 'a':
      case 'area':
        return el.hasAttribute('href') ? 'link' : 'generic';
      case 'article':
        return 'article';
      case 'aside':
        return 'complementary';
      case 'audio':
        return 'audio';
      case 'video':
        return 'video';
      case 'blockquote':
        return 'blockquote';
      case 'br':
        return 'LineBreak';
      case 'button':
        return 'button';
      case 'canvas':
        return 'Canvas';
      case 'caption':
        return 'caption';
      case 'code':
        return 'code';
      case 'dd':
        return 'definition';
      case 'dfn':
      case 'dt':
        return 'term';
      case 'dl':
        return 'list';
      case 'del':
        return 'deletion';
      case 'ins':
        return 'insertion';
      case 'details':
        return 'group';
      case 'dialog':
        return 'dialog';
      case 'em':
        return 'emphasis';
      case 'strong':
        return 'strong';
      case 'fieldset':
        return 'group';
      case 'figure':
        return 'figure';
      case 'footer':
        return el.parentElement?.closest(SECTIONING) ? 'sectionfooter' : 'contentinfo';
      case 'header':
        return el.parentElement?.closest(SECTIONING) ? 'sectionheader' : 'banner';
      case 'form':
        return 'form';
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6':
        return 'heading';
      case 'hr':
        return 'separator';
      case 'iframe':
      case 'frame':
        return 'Iframe';
      case 'img': {
        const alt = el.getAttribute('alt');
        return alt === '' &&
          !el.getAttribute('title') &&
          !el.hasAttribute('aria-label') &&
          !el.hasAttribute('aria-labelledby')
          ? 'none'
          : 'image';
      }
      case 'input': {
        const type = inputType(el);
        const list = el.hasAttribute('list');
        switch (type) {
          case 'button':
          case 'submit':
          case 'reset':
          case 'image':
          case 'file':
            return 'button';
          case 'checkbox':
            return 'checkbox';
          case 'radio':
            return 'radio';
          case 'range':
            return 'slider';
          case 'number':
            return 'spinbutton';
          case 'color':
            return 'ColorWell';
          case 'search':
            return list ? 'combobox' : 'searchbox';
          case 'hidden':
            return 'none';
          case 'date':
          case 'month':
          case 'week':
            return 'Date';
          case 'datetime-local':
            return 'DateTime';
          case 'time':
            return 'InputTime';
          default:
            return list ? 'combobox' : 'textbox';
        }
      }
      case 'label':
        return 'LabelText';
      case 'legend':
        return 'legend';
      case 'li':
        return 'listitem';
      case 'main':
        return 'main';
      case 'mark':
        return 'mark';
      case 'math':
        return 'math';
      case 'menu':
      case 'ol':
      case 'ul':
        return 'list';
      case 'meter':
        return 'meter';
      case 'nav':
        return 'navigation';
      case 'optgroup':
        return 'group';
      case 'option':
        return 'option';
      case 'output':
        return 'status';
      case 'p':
        return 'paragraph';
      case 'progress':
        return 'progressbar';
      case 'search':
        return 'search';
      case 'section':
        return hasAriaName(el) ? 'region' : 'generic';
      case 'select':
        return (el as HTMLSelectElement).multiple || (el as HTMLSelectElement).size > 1 ? 'listbox' : 'combobox';
      case 'summary':
        return 'DisclosureTriangle';
      case 'sub':
        return 'subscript';
      case 'sup':
        return 'superscript';
      case 'table':
        return 'table';
      case 'tbody':
      case 'thead':
      case 'tfoot':
        return 'rowgroup';
      case 'tr':
        return 'row';
      case 'td':
        return 'cell';
      case 'th':
        return (el as HTMLTableCellElement).scope === 'row' ? 'rowheader' : 'columnheader';
      case 'textarea':
        return 'textbox';
      case 'time':
        return 'time';
      case 'html':
      case 'body':
        return 'none';
      default:
        return 'generic';
    }
  }

  function isFocusable(el: Element): boolean {
    const tag = el.localName;
    const formControl = tag === 'button' || tag === 'input' || tag === 'select' || tag === 'textarea';
    if (formControl && (el as HTMLButtonElement).disabled) {
      return false;
    }
    const tabindex = el.getAttribute('tabindex');
    if (tabindex !== null && tabindex.trim() !== '' && !Number.isNaN(parseInt(tabindex, 10))) {
      return true;
    }
    switch (tag) {
      case 'a':
      case 'area':
        return el.hasAttribute('href');
      case 'button':
      case 'select':
      case 'textarea':
      case 'iframe':
        return true;
      case 'input':
        return inputType(el) !== 'hidden';
      case 'option':
        return Boolean((el as HTMLOptionElement).closest('select')) && !(el as HTMLOptionElement).disabled;
      case 'summary':
        return el.parentElement?.localName === 'details' && el.parentElement.querySelector(':scope > summary') === el;
      case 'audio':
      case 'video':
        return el.hasAttribute('controls');
    }
    const editable = (el as HTMLElement).contentEditable;
    return (editable === 'true' || editable === 'plaintext-only') && !el.parentElement?.isContentEditable;
  }

  function isToggleInput(el: Element | null): boolean {
    return el?.localName === 'input' && (inputType(el) === 'checkbox' || inputType(el) === 'radio');
  }

  function roleOf(el: Element, tag: string): string {
    return explicitRole(el) ?? nativeRole(el, tag);
  }

  /** Text of a select's chosen option, as Chrome shows it for the combobox. */
  function selectText(select: HTMLSelectElement): string {
    const option = select.selectedOptions[0];
    return option ? clean(option.label) : '';
  }

  /** The value an embedded control contributes to a name computed from content. */
  function embeddedValue(el: Element, role: string): string | undefined {
    const tag = el.localName;
    if (role === 'textbox' || role === 'searchbox') {
      return tag === 'input' || tag === 'textarea' ? (el as HTMLInputElement).value : (el.textContent ?? '');
    }
    if (role === 'combobox' || role === 'listbox') {
      if (tag === 'select') {
        return selectText(el as HTMLSelectElement);
      }
      if (tag === 'input') {
        return (el as HTMLInputElement).value;
      }
      return undefined;
    }
    if (role === 'slider' || role === 'spinbutton' || role === 'progressbar' || role === 'scrollbar') {
      const text = el.getAttribute('aria-valuetext') ?? el.getAttribute('aria-valuenow');
      if (text !== null) {
        return text;
      }
      return tag === 'input' ? (el as HTMLInputElement).value : undefined;
    }
    return undefined;
  }

  /** Children in the flat tree (shadow root for hosts, assigned nodes for slots). */
  function flatChildren(node: Node): ArrayLike<Node> {
    if (node instanceof Element) {
      const shadow = node.shadowRoot;
      if (shadow) {
        return shadow.childNodes;
      }
      if (node.localName === 'slot') {
        const assigned = (node as HTMLSlotElement).assignedNodes();
        if (assigned.length) {
          return assigned;
        }
      }
    }
    return node.childNodes;
  }

  /** accname "name from content", used for roles that allow it and for labels. */
  function contentText(root: Node, skip: Element | undefined, depth: number, force: boolean): string {
    if (depth > 30) {
      return '';
    }
    let out = '';
    const kids = flatChildren(root);
    for (let k = 0; k < kids.length; k++) {
      const child = kids[k] as Node;
      if (child.nodeType === 3) {
        out += (child as Text).data;
        continue;
      }
      if (child.nodeType !== 1) {
        continue;
      }
      const el = child as Element;
      const tag = el.localName;
      if (el === skip || SKIP_TAGS.has(tag)) {
        continue;
      }
      if (!force && isHiddenForName(el)) {
        continue;
      }
      const role = roleOf(el, tag);
      let piece: string;
      const label = el.getAttribute('aria-label');
      const embedded = embeddedValue(el, role);
      if (byIds(el, 'aria-labelledby').length) {
        piece = byIds(el, 'aria-labelledby')
          .map(t => contentText(t, undefined, depth + 1, true))
          .join(' ');
      } else if (embedded !== undefined && el !== skip) {
        piece = embedded;
      } else if (label && label.trim()) {
        piece = label;
      } else if (tag === 'img' || tag === 'area' || (tag === 'input' && inputType(el) === 'image')) {
        piece = el.getAttribute('alt') ?? el.getAttribute('title') ?? '';
      } else if (tag === 'br') {
        piece = ' ';
      } else if (tag === 'input') {
        piece = buttonInputName(el as HTMLInputElement) ?? '';
      } else {
        piece = contentText(el, skip, depth + 1, force);
        if (!piece.trim() && el.getAttribute('title')) {
          piece = el.getAttribute('title') ?? '';
        }
      }
      const display = force ? 'inline' : styleOf(el).display;
      out += isBlockDisplay(display) || display === 'inline-block' ? ` ${piece} ` : piece;
    }
    return out;
  }

  function buttonInputName(el: HTMLInputElement): string | undefined {
    switch (el.type) {
      case 'submit':
        return el.hasAttribute('value') ? el.value : 'Submit';
      case 'reset':
        return el.hasAttribute('value') ? el.value : 'Reset';
      case 'button':
        return el.value;
      case 'image':
        return el.getAttribute('alt') ?? el.getAttribute('value') ?? el.getAttribute('title') ?? 'Submit';
      case 'file':
        return 'Choose File';
    }
    return undefined;
  }

  /**
   * Labels by control, built once per document or shadow root and snapshot.
   * (Element.labels is a live list built by scanning the whole tree on first
   * access, per element: on a large page that made the first snapshot after
   * load take seconds.)
   */
  let labelMaps = new Map<Node, Map<Element, HTMLLabelElement[]>>();
  function labelsOf(el: Element): HTMLLabelElement[] {
    const root = el.getRootNode();
    let map = labelMaps.get(root);
    if (!map) {
      map = new Map();
      const all = (root as ParentNode).querySelectorAll ? (root as ParentNode).querySelectorAll('label') : [];
      for (const label of Array.from(all)) {
        const control = label.control;
        if (control) {
          const list = map.get(control) ?? [];
          list.push(label);
          map.set(control, list);
        }
      }
      labelMaps.set(root, map);
    }
    return map.get(el) ?? [];
  }

  function labelsText(el: Element): string {
    const labels = labelsOf(el);
    if (labels.length === 0) {
      return '';
    }
    const parts: string[] = [];
    for (const label of labels) {
      parts.push(clean(contentText(label, el, 0, false)));
    }
    return parts.filter(Boolean).join(' ');
  }

  function nameOf(el: Element, tag: string, role: string): string {
    const labelledBy = byIds(el, 'aria-labelledby');
    if (labelledBy.length) {
      const text = clean(
        labelledBy
          .map(t => (t === el ? clean(el.getAttribute('aria-label') ?? '') : contentText(t, undefined, 1, true)))
          .join(' '),
      );
      if (text) {
        return text;
      }
    }
    const aria = el.getAttribute('aria-label');
    if (aria && aria.trim()) {
      return clean(aria);
    }
    let text = '';
    switch (tag) {
      case 'input': {
        const button = buttonInputName(el as HTMLInputElement);
        text = labelsText(el);
        if (!text && button !== undefined && (el as HTMLInputElement).type !== 'file') {
          text = button;
        }
        if (!text && (el as HTMLInputElement).type === 'file') {
          text = 'Choose File';
        }
        if (!text) {
          text = el.getAttribute('title') ?? '';
        }
        if (!clean(text)) {
          text = el.getAttribute('placeholder') ?? el.getAttribute('aria-placeholder') ?? '';
        }
        return clean(text);
      }
      case 'select':
      case 'textarea':
        text =
          labelsText(el) ||
          el.getAttribute('title') ||
          el.getAttribute('placeholder') ||
          el.getAttribute('aria-placeholder') ||
          '';
        return clean(text);
      case 'img':
      case 'area':
        return clean(el.getAttribute('alt') || el.getAttribute('title') || '');
      case 'fieldset': {
        const legend = el.querySelector(':scope > legend');
        text = legend ? contentText(legend, undefined, 1, false) : '';
        break;
      }
      case 'figure': {
        const caption = el.querySelector(':scope > figcaption');
        text = caption ? contentText(caption, undefined, 1, false) : '';
        break;
      }
      case 'table': {
        const caption = (el as HTMLTableElement).caption;
        text = caption ? contentText(caption, undefined, 1, false) : '';
        break;
      }
      case 'optgroup':
        text = el.getAttribute('label') ?? '';
        break;
      case 'option':
        text = (el as HTMLOptionElement).label;
        break;
      case 'svg': {
        const title = el.querySelector(':scope > title');
        text = title?.textContent ?? '';
        break;
      }
      case 'output':
      case 'meter':
      case 'progress':
        text = labelsText(el);
        break;
      case 'button':
        text = labelsText(el);
        break;
    }
    text = clean(text);
    if (!text && NAME_FROM_CONTENT.has(role)) {
      if (el.childElementCount === 0 && !(el as HTMLElement).shadowRoot) {
        text = clean(el.textContent ?? '');
      } else {
        text = clean(contentText(el, undefined, 0, false));
      }
    }
    if (!text && role !== 'Iframe') {
      text = clean(el.getAttribute('title') ?? '');
    } else if (!text && role === 'Iframe') {
      text = clean(el.getAttribute('title') ?? '');
    }
    return text;
  }

  function descriptionOf(el: Element, name: string): string {
    const describedBy = byIds(el, 'aria-describedby');
    if (describedBy.length) {
      const text = clean(describedBy.map(t => contentText(t, undefined, 1, true)).join(' '));
      if (text) {
        return text;
      }
    }
    const aria = el.getAttribute('aria-description');
    if (aria && aria.trim()) {
      return clean(aria);
    }
    const title = el.getAttribute('title');
    if (title && clean(title) && clean(title) !== name) {
      return clean(title);
    }
    return '';
  }

  const TRISTATE = (value: string | null): boolean | 'mixed' | undefined =>
    value === null ? undefined : value === 'mixed' ? 'mixed' : value === 'true';

  function propsOf(
    el: Element,
    tag: string,
    role: string,
    focused: boolean,
    disabled: boolean,
    description: string,
  ): Record<string, string | number | boolean> | undefined {
    const p: Record<string, string | number | boolean> = {};
    const attr = (name: string) => el.getAttribute(name);
    const input = el as HTMLInputElement;
    if (description) {
      p['description'] = description;
    }
    if (disabled) {
      p['disabled'] = true;
    }
    if (focused) {
      p['focused'] = true;
    }
    const expanded = attr('aria-expanded');
    if (expanded === 'true' || expanded === 'false') {
      p['expanded'] = expanded === 'true';
    }
    let popup = attr('aria-haspopup');
    if (popup === 'true') {
      popup = 'menu';
    }
    if (popup && popup !== 'false') {
      p['haspopup'] = popup;
    }
    const invalid = attr('aria-invalid');
    if (invalid && invalid !== 'false') {
      p['invalid'] = invalid === 'true' || invalid === 'grammar' || invalid === 'spelling' ? invalid : 'true';
    } else if ((tag === 'input' || tag === 'select' || tag === 'textarea') && el.matches(':user-invalid')) {
      p['invalid'] = 'true';
    }
    if (
      attr('aria-required') === 'true' ||
      ((tag === 'input' || tag === 'select' || tag === 'textarea') && (el as HTMLInputElement).required)
    ) {
      p['required'] = true;
    }
    if (
      attr('aria-readonly') === 'true' ||
      ((tag === 'input' || tag === 'textarea') && (el as HTMLInputElement).readOnly && role !== 'button')
    ) {
      p['readonly'] = true;
    }
    const shortcuts = attr('aria-keyshortcuts');
    if (shortcuts) {
      p['keyshortcuts'] = shortcuts;
    }
    const roledescription = attr('aria-roledescription');
    if (roledescription && roledescription.trim()) {
      p['roledescription'] = roledescription;
    }
    for (const name of ['errormessage', 'details']) {
      const value = attr(`aria-${name}`);
      if (value) {
        p[name] = value;
      }
    }
    if (attr('aria-busy') === 'true') {
      p['busy'] = true;
    }
    const live = attr('aria-live') ?? IMPLICIT_LIVE[role];
    if (live) {
      p['live'] = live;
      p['relevant'] = attr('aria-relevant') ?? 'additions text';
      if (attr('aria-atomic') === 'true' || (attr('aria-atomic') === null && (role === 'alert' || role === 'status'))) {
        p['atomic'] = true;
      }
    } else if (attr('aria-atomic') === 'true') {
      p['atomic'] = true;
    }
    const autocomplete = attr('aria-autocomplete');
    if (autocomplete && autocomplete !== 'none') {
      p['autocomplete'] = autocomplete;
    }
    const orientation = attr('aria-orientation') ?? DEFAULT_ORIENTATION[role];
    if (orientation && (role in DEFAULT_ORIENTATION || role === 'radiogroup' || role === 'tabpanel')) {
      p['orientation'] = orientation;
    }
    if (attr('aria-modal') === 'true' && (role === 'dialog' || role === 'alertdialog')) {
      p['modal'] = true;
    } else if (tag === 'dialog' && el.matches(':modal')) {
      p['modal'] = true;
    }
    if (attr('aria-multiselectable') === 'true') {
      p['multiselectable'] = true;
    }
    const level = attr('aria-level');
    if (role === 'heading') {
      p['level'] = level && parseInt(level, 10) > 0 ? parseInt(level, 10) : /^h[1-6]$/.test(tag) ? Number(tag[1]) : 2;
    } else if (level && (role === 'treeitem' || role === 'listitem' || role === 'row')) {
      p['level'] = parseInt(level, 10);
    }
    switch (role) {
      case 'checkbox':
      case 'radio':
      case 'switch':
      case 'menuitemcheckbox':
      case 'menuitemradio': {
        let checked: boolean | 'mixed' | undefined;
        if (tag === 'input' && (inputType(el) === 'checkbox' || inputType(el) === 'radio')) {
          checked = input.indeterminate && inputType(el) === 'checkbox' ? 'mixed' : input.checked;
        } else {
          checked = TRISTATE(attr('aria-checked')) ?? false;
        }
        if (checked) {
          p['checked'] = checked;
        }
        break;
      }
      case 'button': {
        const pressed = TRISTATE(attr('aria-pressed'));
        if (pressed) {
          p['pressed'] = pressed;
        }
        if (tag === 'input' && inputType(el) === 'file') {
          const files = input.files;
          p['value'] =
            !files || files.length === 0
              ? 'No file chosen'
              : files.length === 1
                ? (files[0]?.name ?? '')
                : `${files.length} files`;
        }
        break;
      }
      case 'textbox':
      case 'searchbox':
      case 'combobox': {
        if (tag === 'input' || tag === 'textarea') {
          const value = input.value;
          if (value) {
            p['value'] = inputType(el) === 'password' ? '•'.repeat(value.length) : value;
          }
          if (tag === 'textarea') {
            p['multiline'] = true;
          }
          if (el.hasAttribute('list')) {
            p['autocomplete'] = 'list';
            p['haspopup'] = 'listbox';
          }
        } else if (tag === 'select') {
          const value = selectText(el as HTMLSelectElement);
          if (value) {
            p['value'] = value;
          }
          p['expanded'] = false;
          p['haspopup'] = 'menu';
        } else if (role === 'combobox') {
          p['expanded'] ??= false;
          p['haspopup'] ??= 'listbox';
          const text = clean(el.textContent ?? '');
          if (text && !el.hasAttribute('aria-activedescendant')) {
            p['value'] = text;
          }
        } else if ((el as HTMLElement).isContentEditable) {
          const text = clean((el as HTMLElement).innerText ?? '');
          if (text) {
            p['value'] = text;
          }
        }
        if (attr('aria-multiline') === 'true') {
          p['multiline'] = true;
        }
        break;
      }
      case 'listbox':
        if (tag === 'select' && (el as HTMLSelectElement).multiple) {
          p['multiselectable'] = true;
        }
        break;
      case 'option':
        if (tag === 'option') {
          p['selected'] = (el as HTMLOptionElement).selected;
        } else if (attr('aria-selected') !== null) {
          p['selected'] = attr('aria-selected') === 'true';
        }
        if (attr('aria-checked') !== null) {
          const checked = TRISTATE(attr('aria-checked'));
          if (checked) {
            p['checked'] = checked;
          }
        }
        break;
      case 'tab':
      case 'treeitem':
      case 'row':
      case 'gridcell':
      case 'columnheader':
      case 'rowheader':
        if (role === 'tab' || attr('aria-selected') !== null) {
          p['selected'] = attr('aria-selected') === 'true';
        }
        break;
      case 'DisclosureTriangle':
        p['expanded'] = Boolean((el.parentElement as HTMLDetailsElement | null)?.open);
        break;
      case 'ColorWell':
        p['value'] = input.value;
        break;
      case 'link':
        if (tag === 'a' || tag === 'area') {
          p['url'] = (el as HTMLAnchorElement).href;
        }
        break;
      case 'image':
        if (tag === 'img' && el.getAttribute('src')) {
          p['url'] = (el as HTMLImageElement).src;
        }
        break;
      case 'generic':
        if ((el as HTMLElement).isContentEditable && isFocusable(el)) {
          const text = clean((el as HTMLElement).innerText ?? '');
          if (text) {
            p['value'] = text;
          }
        }
        break;
    }
    if (
      role === 'slider' ||
      role === 'spinbutton' ||
      role === 'progressbar' ||
      role === 'scrollbar' ||
      role === 'meter' ||
      (role === 'separator' && isFocusable(el))
    ) {
      const num = (v: string | null) =>
        v === null || v.trim() === '' || Number.isNaN(Number(v)) ? undefined : Number(v);
      if (tag === 'input') {
        const type = inputType(el);
        const min = num(attr('min')) ?? (type === 'range' ? 0 : 0);
        const max = num(attr('max')) ?? (type === 'range' ? 100 : 0);
        const value = input.value;
        if (value !== '') {
          p['value'] = Number(value);
        }
        p['valuemin'] = min;
        p['valuemax'] = max;
        p['valuetext'] = attr('aria-valuetext') ?? value;
      } else if (tag === 'progress' || tag === 'meter') {
        const m = el as HTMLProgressElement;
        p['value'] = m.value;
        p['valuemin'] = tag === 'meter' ? (el as HTMLMeterElement).min : 0;
        p['valuemax'] = m.max;
      } else {
        const now = num(attr('aria-valuenow'));
        if (now !== undefined) {
          p['value'] = now;
        }
        const min = num(attr('aria-valuemin'));
        const max = num(attr('aria-valuemax'));
        if (min !== undefined || role === 'slider' || role === 'scrollbar') {
          p['valuemin'] = min ?? 0;
        }
        if (max !== undefined || role === 'slider' || role === 'scrollbar') {
          p['valuemax'] = max ?? 100;
        }
        const text = attr('aria-valuetext');
        if (text !== null) {
          p['valuetext'] = text;
        } else if (now !== undefined) {
          p['valuetext'] = String(now);
        }
      }
    }
    return Object.keys(p).length ? p : undefined;
  }

  // ---------------------------------------------------------------- the walk

  /** Inline-layout state used to collapse whitespace as the renderer does. */
  interface Inline {
    space: boolean;
    last: Rec | undefined;
    /** The previous inline item was a form control or inline block (Chrome drops spaces beside those). */
    afterBox?: boolean;
  }
  let inline: Inline = {space: true, last: undefined};
  /** Depth of labels of checkboxes and radios being walked: Chrome leaves their text out. */
  let toggleLabel = 0;

  const isBox = (node: Node | null): boolean => {
    while (node && node.nodeType === 8) {
      node = node.nextSibling;
    }
    if (!node || node.nodeType !== 1) {
      return false;
    }
    const el = node as Element;
    const tag = el.localName;
    if (tag === 'input' || tag === 'select' || tag === 'textarea' || tag === 'button') {
      return true;
    }
    const display = styleOf(el).display;
    return display.startsWith('inline-') && display !== 'inline-table';
  };
  let focusedNode: Element | null = null;

  const endLine = () => {
    const last = inline.last;
    if (last && last.n.endsWith(' ')) {
      last.n = last.n.slice(0, -1);
    }
    inline.last = undefined;
    inline.space = true;
  };

  function deepActiveElement(doc: Document): Element | null {
    let active: Element | null = doc.activeElement;
    for (let i = 0; active && i < 50; i++) {
      const shadow = active.shadowRoot;
      if (shadow?.activeElement) {
        active = shadow.activeElement;
        continue;
      }
      if (active.localName === 'iframe') {
        try {
          const inner = (active as HTMLIFrameElement).contentDocument?.activeElement;
          if (inner && inner !== (active as HTMLIFrameElement).contentDocument?.body) {
            active = inner;
            continue;
          }
        } catch {
          // Cross-origin frame: its focus is reported by its own agent.
        }
      }
      break;
    }
    return active;
  }

  function visitDocument(doc: Document): Rec {
    const saved = inline;
    inline = {space: true, last: undefined};
    const rec: Rec = {r: 'RootWebArea', n: clean(doc.title ?? ''), p: {url: doc.URL}, i: idOf(doc)};
    if (!docs.has(doc)) {
      docs.set(doc, nextDoc++);
    }
    const root = doc.documentElement;
    if (root) {
      const result = visitElement(root, false, false);
      if (result.out.length) {
        rec.c = result.out;
      }
    }
    endLine();
    inline = saved;
    return rec;
  }

  function visitText(text: Text, insideControl: boolean, parentStyle: CSSStyleDeclaration): Visit {
    if (parentStyle.visibility !== 'visible') {
      return NONE;
    }
    let s = text.data;
    const ws = parentStyle.whiteSpaceCollapse || parentStyle.whiteSpace;
    if (
      ws === 'preserve' ||
      ws === 'pre' ||
      ws === 'pre-wrap' ||
      ws === 'break-spaces' ||
      ws === 'preserve-breaks' ||
      ws === 'pre-line'
    ) {
      if (ws === 'preserve-breaks' || ws === 'pre-line') {
        s = s.replace(/[ \t]+/g, ' ');
      }
      if (!s) {
        return NONE;
      }
      inline.space = /\s$/.test(s);
    } else {
      s = collapse(s);
      if (s === ' ' && (inline.afterBox || isBox(text.nextSibling))) {
        inline.space = true;
        return NONE;
      }
      if (inline.space && s.startsWith(' ')) {
        s = s.slice(1);
      }
      if (!s) {
        return NONE;
      }
      inline.space = s.endsWith(' ');
    }
    inline.afterBox = false;
    if (toggleLabel > 0) {
      return {out: [], foc: false, any: true};
    }
    const transform = parentStyle.textTransform;
    if (transform === 'uppercase') {
      s = s.toUpperCase();
    } else if (transform === 'lowercase') {
      s = s.toLowerCase();
    } else if (transform === 'capitalize') {
      s = s.replace(/(^|[\s\-(])(\p{L})/gu, (_m, a: string, b: string) => a + b.toUpperCase());
    }
    const rec: Rec = {r: 'StaticText', n: s, i: idOf(text)};
    inline.last = rec;
    return {out: insideControl ? [] : [rec], foc: false, any: true};
  }

  /**
   * Visits an element: returns the nodes it contributes to its parent (itself
   * when interesting, else its interesting descendants hoisted), whether it or
   * a descendant is focusable, and whether it exists in the AX tree at all.
   */
  function visitElement(el: Element, insideControl: boolean, disabledAbove: boolean): Visit {
    const tag = el.localName;
    if (SKIP_TAGS.has(tag)) {
      return NONE;
    }
    const cs = styleOf(el);
    const display = cs.display;
    if (display === 'none' && tag !== 'option' && tag !== 'optgroup') {
      return NONE;
    }
    if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert')) {
      // Still in Chrome's tree (ignored): it counts as a child, but nothing in it is shown.
      return {out: [], foc: false, any: true};
    }
    const visHidden = cs.visibility !== 'visible';
    const role = roleOf(el, tag);
    const focusable = !visHidden && isFocusable(el);
    const disabledAttr = el.getAttribute('aria-disabled');
    const disabled =
      disabledAbove ||
      disabledAttr === 'true' ||
      ((tag === 'button' ||
        tag === 'input' ||
        tag === 'select' ||
        tag === 'textarea' ||
        tag === 'option' ||
        tag === 'optgroup' ||
        tag === 'fieldset') &&
        el.matches(':disabled'));
    const richlyEditable = (el as HTMLElement).isContentEditable && tag !== 'input' && tag !== 'textarea';
    const control = CONTROLS.has(role);
    const childInsideControl = insideControl || control;

    // Opaque widgets (user-agent shadow content): the server fetches their AX subtree.
    if (
      !visHidden &&
      ((tag === 'input' && OPAQUE_INPUTS.has(inputType(el))) ||
        ((tag === 'video' || tag === 'audio') && el.hasAttribute('controls')))
    ) {
      inline.space = false;
      inline.last = undefined;
      return {out: [{r: role, n: '', i: idOf(el), o: 1}], foc: true, any: true};
    }

    if (role === 'LineBreak') {
      endLine();
      if (visHidden) {
        return {out: [], foc: false, any: true};
      }
      return {out: insideControl ? [] : [{r: 'LineBreak', n: '\n', i: idOf(el)}], foc: false, any: true};
    }

    const block = isBlockDisplay(display);
    const atomicInline = !block && display !== 'inline' && display !== 'contents';
    let outer: Inline | undefined;
    if (block) {
      endLine();
    } else if (
      atomicInline ||
      tag === 'img' ||
      tag === 'input' ||
      tag === 'select' ||
      tag === 'textarea' ||
      tag === 'button' ||
      tag === 'iframe'
    ) {
      outer = inline;
      inline = {space: true, last: undefined};
    }

    const out: Rec[] = [];
    let foc = false;
    let any = false;
    let frameRec: Rec | undefined;

    if (tag === 'iframe' || tag === 'frame') {
      let doc: Document | null;
      try {
        doc = (el as HTMLIFrameElement).contentDocument;
      } catch {
        doc = null;
      }
      if (doc) {
        frameRec = visitDocument(doc);
      }
      any = true;
    } else if (tag === 'select' || tag === 'textarea' || (tag === 'input' && role !== 'button')) {
      // Form controls: their children (options) are reachable only for selects.
      if (tag === 'select') {
        for (const child of Array.from(el.children)) {
          const r = visitElement(child, childInsideControl, disabled);
          out.push(...r.out);
          foc ||= r.foc;
          any ||= r.any;
        }
      }
    } else {
      const labelOfToggle = tag === 'label' && isToggleInput((el as HTMLLabelElement).control);
      if (labelOfToggle) {
        toggleLabel++;
      }
      const kids = flatChildren(el);
      const hideContent = cs.contentVisibility === 'hidden' || (tag === 'details' && !(el as HTMLDetailsElement).open);
      for (let k = 0; k < kids.length; k++) {
        const child = kids[k] as Node;
        let r: Visit;
        if (child.nodeType === 3) {
          if (hideContent) {
            continue;
          }
          r = visitText(child as Text, childInsideControl, cs);
        } else if (child.nodeType === 1) {
          if (hideContent && !((child as Element).localName === 'summary' && tag === 'details')) {
            continue;
          }
          r = visitElement(
            child as Element,
            childInsideControl,
            disabled && (disabledAttr === 'true' || disabledAbove),
          );
        } else {
          continue;
        }
        if (r.out.length) {
          for (const rec of r.out) {
            out.push(rec);
          }
        }
        foc ||= r.foc;
        any ||= r.any;
      }
      if (labelOfToggle) {
        toggleLabel--;
      }
    }

    if (block) {
      endLine();
    } else if (outer) {
      endLine();
      inline = outer;
      inline.space = false;
      inline.last = undefined;
      inline.afterBox = tag !== 'img' && tag !== 'iframe';
    }

    const result: Visit = {out, foc: foc || focusable, any: true};
    if (visHidden || role === 'none' || tag === 'html' || tag === 'body') {
      if (frameRec && !visHidden) {
        out.push(frameRec);
      }
      return result;
    }

    const plainTextField =
      !richlyEditable && (role === 'textbox' || role === 'searchbox' || tag === 'input' || tag === 'textarea');
    let name: string | undefined;
    const getName = () => (name ??= nameOf(el, tag, role));
    let leaf: boolean;
    if (!any || plainTextField || LEAF_ROLES.has(role)) {
      leaf = true;
    } else if (foc) {
      leaf = false;
    } else {
      leaf = role === 'heading' && getName() !== '';
    }
    const liveAttr = el.getAttribute('aria-live') ?? IMPLICIT_LIVE[role];
    let interesting =
      LANDMARKS.has(role) ||
      focusable ||
      richlyEditable ||
      el.getAttribute('aria-busy') === 'true' ||
      (liveAttr !== undefined && liveAttr !== 'off') ||
      (role === 'dialog' || role === 'alertdialog'
        ? el.getAttribute('aria-modal') === 'true' || (tag === 'dialog' && el.matches(':modal'))
        : false) ||
      el.hasAttribute('aria-errormessage') ||
      el.hasAttribute('aria-details') ||
      Boolean(el.getAttribute('aria-roledescription')?.trim()) ||
      control;
    let description: string | undefined;
    if (!interesting && !insideControl && leaf) {
      description = descriptionOf(el, getName());
      interesting = getName() !== '' || description !== '';
    }
    if (!interesting && !frameRec) {
      return result;
    }
    const n = getName();
    description ??= descriptionOf(el, n);
    const rec: Rec = {r: role, n, i: idOf(el)};
    const props = propsOf(el, tag, role, el === focusedNode, disabled, description);
    if (props) {
      rec.p = props;
    }
    const children = leaf ? [] : out;
    if (frameRec) {
      children.push(frameRec);
    } else if (tag === 'iframe' || tag === 'frame') {
      rec.f = 1;
    }
    if (children.length) {
      rec.c = children;
    }
    return {out: [rec], foc: result.foc, any: true};
  }

  function snapshot(): {token: string; root: Rec} {
    live = new Map();
    labelMaps = new Map();
    focusedNode = deepActiveElement(document);
    inline = {space: true, last: undefined};
    const root = visitDocument(document);
    // Trailing spaces trimmed away may have left empty text nodes.
    const prune = (rec: Rec) => {
      if (rec.c) {
        rec.c = rec.c.filter(child => child.r !== 'StaticText' || child.n !== '');
        rec.c.forEach(prune);
        if (!rec.c.length) {
          delete rec.c;
        }
      }
    };
    prune(root);
    return {token, root};
  }

  function get(id: number): Element | null {
    const node = live.get(id);
    if (!node || !node.isConnected) {
      return null;
    }
    if (node.nodeType === 9) {
      return (node as Document).documentElement;
    }
    if (node.nodeType === 3) {
      const parent = node.parentNode;
      return parent instanceof ShadowRoot ? parent.host : (parent as Element | null);
    }
    return node as Element;
  }

  function docOf(id: number): number {
    const node = live.get(id);
    const doc = node ? (node.nodeType === 9 ? (node as Document) : node.ownerDocument) : null;
    return doc ? (docs.get(doc) ?? 0) : 0;
  }

  Object.defineProperty(g, KEY, {value: {token, snapshot, get, docOf}, enumerable: false});
}
