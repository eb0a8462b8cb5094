/**
 * The whitelist behind the in-page walk (walker.ts): which elements the page
 * may answer for itself, and why that answer is Chrome's. Serialized into the
 * page with the walker, so `walkerRules` must stay self-contained.
 *
 * The walk answers for three kinds of node only, and asks Chrome for anything
 * outside these rules:
 * - Containers it leaves out (their children are hoisted): elements whose
 *   implicit role is never a control, landmark, leaf role (img, slider...) or
 *   heading, with no attribute that could name them, make them focusable or
 *   change their role (any attribute not listed here sends the element to
 *   Chrome), no generated text, not scrollable. Such a node is never
 *   "interesting" in the reference's filter, is not a control (so its
 *   children's filtering does not change) and is never a leaf that could be
 *   printed, so leaving it out is what the filter itself does.
 * - Text nodes: Chrome names a text node with its rendered text. With
 *   text-transform none, collapsible white space and none of the characters
 *   Chrome treats specially, the rendered text is the DOM text with each run
 *   of spaces, tabs and newlines collapsed to one space; only the ends depend
 *   on the neighbours, so text with white space at an end is answered only
 *   when it is the single child of a block container (where both ends are
 *   line ends and are removed), and white-space-only text only where CSS
 *   creates no box for it (at a block's start, after a block-level sibling,
 *   inside flex, grid and table boxes). Everything else: Chrome.
 * - Links (a[href]), buttons and h1-h6 whose whole content is one such text
 *   node, with only the attributes listed below: Chrome names them from that
 *   text (trimmed), a link carries its href as `url`, a heading its level,
 *   and nothing else is set on them (disabled buttons, focused elements and
 *   elements with generated content go to Chrome).
 */
// Runs in the page, sent whole as one function (the 60-line limit does not apply).
export function walkerRules(): unknown {
  /**
   * Containers whose role (landmark or not, e.g. header is a banner only outside
   * sectioning content) or name (fieldset from its legend, table from its caption,
   * figure from its figcaption, even when those are hidden) Chrome decides: their
   * own node comes from Chrome, their children from the walk.
   */
  const landmarkTags = new Set([
    'main',
    'nav',
    'aside',
    'header',
    'footer',
    'search',
    'form',
    'fieldset',
    'figure',
    'table',
  ]);
  /** Implicit roles that are never a control, landmark, leaf role or heading (generic, paragraph, list...). */
  const containerTags = new Set([
    'html',
    'body',
    'div',
    'span',
    'p',
    'ul',
    'ol',
    'li',
    'dl',
    'dt',
    'dd',
    'b',
    'i',
    'em',
    'strong',
    'small',
    's',
    'u',
    'mark',
    'sub',
    'sup',
    'code',
    'kbd',
    'samp',
    'var',
    'cite',
    'dfn',
    'time',
    'data',
    'pre',
    'blockquote',
    'figcaption',
    'address',
    'article',
    'hgroup',
    'legend',
    'caption',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'td',
    'th',
    'center',
    'font',
    'big',
    'tt',
    'nobr',
    'ins',
    'del',
    'bdi',
    'bdo',
    'menu',
    'slot',
    'section',
    ...landmarkTags,
  ]);
  /** HTML attributes with no effect on an element's accessibility node (presentation, identity, scripting). */
  const SAFE = new Set([
    'id',
    'class',
    'style',
    'lang',
    'dir',
    'slot',
    'part',
    'exportparts',
    'translate',
    'spellcheck',
    'nonce',
    'hidden',
    'inert',
    'aria-hidden',
    'itemscope',
    'itemtype',
    'itemprop',
    'itemid',
    'itemref',
    'xmlns',
    'xml:lang',
    'autocapitalize',
    'align',
    'valign',
    'width',
    'height',
    'bgcolor',
    'border',
    'cellpadding',
    'cellspacing',
    'nowrap',
    'clear',
    'color',
    'face',
    'size',
    'cite',
    'datetime',
    'start',
    'reversed',
    'type',
    'value',
    'colspan',
    'rowspan',
    'scope',
    'headers',
    'span',
    'for',
    'name',
    'form',
    'noshade',
    'compact',
    'background',
    'elementtiming',
    'fetchpriority',
    'enterkeyhint',
    'inputmode',
    'autocorrect',
    'writingsuggestions',
  ]);
  /**
   * Attributes that may name, describe, focus or make a container interesting
   * but cannot change how its children are shown: Chrome gives the node.
   */
  const C_ATTRS = new Set([
    'title',
    'tabindex',
    'aria-label',
    'aria-labelledby',
    'aria-describedby',
    'aria-description',
    'aria-details',
    'aria-keyshortcuts',
    'aria-roledescription',
    'aria-live',
    'aria-atomic',
    'aria-relevant',
    'aria-busy',
    'aria-controls',
    'aria-flowto',
    'aria-errormessage',
  ]);
  /** Explicit roles that are never a control, leaf role or heading and do not make children presentational. */
  const SAFE_ROLES = new Set([
    'generic',
    'none',
    'presentation',
    'group',
    'region',
    'list',
    'listitem',
    'article',
    'navigation',
    'main',
    'banner',
    'complementary',
    'contentinfo',
    'form',
    'search',
    'note',
    'document',
    'status',
    'alert',
    'log',
    'marquee',
    'timer',
    'figure',
    'blockquote',
    'paragraph',
    'term',
    'definition',
    'feed',
    'directory',
    'caption',
    'code',
    'emphasis',
    'strong',
    'subscript',
    'superscript',
    'time',
    'mark',
    'deletion',
    'insertion',
    'toolbar',
    'tabpanel',
    'dialog',
    'alertdialog',
    'application',
    'section',
    'sectionhead',
    'comment',
    'suggestion',
  ]);
  /** tabindex changes only the tab order of a link or button: both are focusable either way. */
  const LINK = new Set([
    'href',
    'target',
    'rel',
    'download',
    'hreflang',
    'referrerpolicy',
    'ping',
    'charset',
    'tabindex',
    'title',
  ]);
  const BUTTON = new Set([
    'formaction',
    'formenctype',
    'formmethod',
    'formnovalidate',
    'formtarget',
    'tabindex',
    'title',
  ]);
  /** A heading's title only describes it. */
  const HEADING = new Set(['title']);
  /**
   * Characters whose rendered form or name treatment differs from the DOM
   * text (no-break and other special spaces, soft hyphens, zero-width and
   * bidi controls, variation selectors, CR/FF), and segment breaks next to
   * East Asian text (CSS may drop them).
   */
  // Built from a string: the class lists lone combining code points (variation selectors) on purpose.
  const UNSAFE = new RegExp(
    // eslint-disable-next-line no-misleading-character-class -- lone variation selectors are what is listed
    '[\\r\\f\\v\\u00a0\\u00ad\\u034f\\u061c\\u115f\\u1160\\u1680\\u17b4\\u17b5\\u180b-\\u180f\\u2000-\\u200f' +
      '\\u2028-\\u202f\\u205f-\\u206f\\u3000\\u3164\\ufe00-\\ufe0f\\ufeff\\uffa0\\ufff0-\\ufffb]',
  );
  const WIDE = /[\u1100-\u11ff\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]|[\ud840-\ud87f]/;
  const BLOCK_CONTAINERS = new Set([
    'block',
    'list-item',
    'flow-root',
    'inline-block',
    'table-cell',
    'table-caption',
    'flex',
    'inline-flex',
    'grid',
    'inline-grid',
  ]);
  /** Boxes that create no box for white-space-only text among their children. */
  const NO_WHITESPACE = new Set([
    'flex',
    'inline-flex',
    'grid',
    'inline-grid',
    'table',
    'inline-table',
    'table-row',
    'table-row-group',
    'table-header-group',
    'table-footer-group',
    'table-column',
    'table-column-group',
  ]);
  /**
   * Every attribute name HTML defines (and ARIA's role). Chrome's
   * accessibility code reads attributes by these names only, so an attribute
   * of any other name (framework markers like `mode`, `ng-version`, `x-data`,
   * `v-cloak`) cannot change a node; one of these names can, unless listed as
   * harmless above.
   */
  const HTML_ATTRS = new Set(
    (
      'abbr accept accept-charset accesskey action allow allowfullscreen alpha alt as async autocapitalize ' +
      'autocomplete autocorrect autofocus autoplay blocking charset checked cite class closedby color colorspace ' +
      'cols colspan command commandfor content contenteditable controls coords crossorigin data datetime decoding ' +
      'default defer dir dirname disabled download draggable enctype enterkeyhint fetchpriority for form ' +
      'formaction formenctype formmethod formnovalidate formtarget headers headingoffset headingreset height hidden ' +
      'high href hreflang http-equiv id imagesizes imagesrcset inert inputmode integrity interestfor is ismap itemid ' +
      'itemprop itemref itemscope itemtype kind label lang list loading loop low max maxlength media method min ' +
      'minlength multiple muted name nomodule nonce novalidate open optimum pattern ping placeholder playsinline ' +
      'popover popovertarget popovertargetaction poster preload readonly referrerpolicy rel required reversed role ' +
      'rows rowspan sandbox scope selected shadowrootclonable shadowrootcustomelementregistry ' +
      'shadowrootdelegatesfocus shadowrootmode shadowrootserializable shape size sizes slot span spellcheck src ' +
      'srcdoc srclang srcset start step style switch tabindex target title translate type usemap value width wrap ' +
      'writingsuggestions align alink archive axis background bgcolor border bordercolor cellpadding cellspacing ' +
      'char charoff classid clear code codebase codetype compact declare direction event face frame frameborder ' +
      'hspace language link longdesc lowsrc marginheight marginwidth nohref noresize noshade nowrap profile rev ' +
      'rules scheme scrolling standby summary text valign valuetype version vlink vspace xmlns'
    ).split(' '),
  );
  const safeAttr = (name: string) =>
    SAFE.has(name) ||
    name.startsWith('data-') ||
    name.startsWith('on') ||
    (!HTML_ATTRS.has(name) && !name.startsWith('aria-'));
  return {
    containerTags,
    landmarkTags,
    safeAttr,
    cAttr: (name: string) => C_ATTRS.has(name),
    safeRoleTokens: (value: string) => {
      const tokens = value.trim().toLowerCase().split(/\s+/);
      return tokens.length > 0 && tokens.every(t => SAFE_ROLES.has(t));
    },
    linkAttr: (name: string) => safeAttr(name) || LINK.has(name),
    buttonAttr: (name: string) => safeAttr(name) || BUTTON.has(name),
    headingAttr: (name: string) => safeAttr(name) || HEADING.has(name),
    unsafeText: (data: string) => UNSAFE.test(data) || (data.includes('\n') && WIDE.test(data)),
    blockContainer: (display: string) => BLOCK_CONTAINERS.has(display),
    noWhitespaceChildren: (display: string) => NO_WHITESPACE.has(display),
    /** Block-level boxes: white space right after one of them starts a line and gets no box. */
    blockLevel: (display: string) =>
      display === 'block' ||
      display === 'list-item' ||
      display === 'flow-root' ||
      display === 'flex' ||
      display === 'grid' ||
      display === 'table',
  };
}
