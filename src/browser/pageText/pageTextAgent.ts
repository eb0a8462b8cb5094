/**
 * The in-page half of get_page_text, run in an isolated world of each frame
 * (the page's scripts never see it, its globals never leak). It is
 * stringified, so it must stay self-contained: the libraries come in as
 * arguments (Mozilla's Readability and isProbablyReaderable, Turndown and its
 * GFM plugin).
 *
 * The page is first copied into a fresh document along its composed tree
 * (open shadow roots with their slots filled), leaving out what is not
 * rendered (display:none, visibility:hidden, aria-hidden), what is not text
 * (scripts, styles, media plumbing), and page-level landmarks that are not
 * content (navigation, banner, contentinfo, complementary, search), with URLs
 * made absolute. Frames are copied by their own agent and inlined where the
 * iframe was. Readability then picks the main content when it judges the
 * page an article; otherwise the `main` landmark, else the whole copy, is
 * used. Turndown turns the result into markdown (tables as pipe tables) or
 * plain text.
 */

/** What the agent hands back for one extraction. */
export interface AgentText {
  title: string;
  /** How the content was chosen: `article` (Readability), `main` (landmark), `page`, `element`. */
  source: 'article' | 'main' | 'page' | 'element';
  text: string;
}

export interface TextAgent {
  /** Counts the rendered iframes under `root` (or the document); frameAt(i) gives each, in document order. */
  frames(root?: Element): number;
  frameAt(index: number): Element | undefined;
  /** The cleaned copy's HTML (for a parent frame to inline), with child frames' HTML by index. */
  html(root: Element | undefined, frames: Record<number, string>): string;
  extract(root: Element | undefined, frames: Record<number, string>, format: 'markdown' | 'text'): AgentText;
}

/** What the agent uses of the libraries (untyped browser builds). */
interface TurndownRule {
  filter: string | string[] | ((node: Element) => boolean);
  replacement: (content: string, node: Element) => string;
}
interface Turndown {
  use(plugin: (service: Turndown) => void): Turndown;
  addRule(name: string, rule: TurndownRule): Turndown;
  escape: (text: string) => string;
  turndown(input: Node): string;
}
type TurndownConstructor = new (options: Record<string, string>) => Turndown;
type ReadabilityConstructor = new (
  doc: Document,
  options: object,
) => {parse(): {title?: string | null; content?: string | null} | null};
type Readerable = (doc: Document) => boolean;
interface GfmPlugins {
  gfm: (service: Turndown) => void;
}

/** Builds the agent. Runs in the page: no closure over this module. */
export function createTextAgent(
  Readability: ReadabilityConstructor,
  isProbablyReaderable: Readerable,
  TurndownService: TurndownConstructor,
  gfm: GfmPlugins,
): TextAgent {
  const SKIPPED = new Set([
    'SCRIPT',
    'STYLE',
    'NOSCRIPT',
    'TEMPLATE',
    'LINK',
    'META',
    'HEAD',
    'SVG',
    'CANVAS',
    'OBJECT',
    'EMBED',
    'AUDIO',
    'VIDEO',
    'SOURCE',
    'TRACK',
    'MAP',
    'DIALOG',
    'SELECT',
    'OPTION',
    'DATALIST',
    'TEXTAREA',
    'INPUT',
    'BUTTON',
  ]);
  const LANDMARK_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search']);
  const SECTIONING = 'article, aside, main, nav, section, [role=article], [role=main], [role=region]';
  let frameList: Element[] = [];

  const isFrame = (el: Element) => el.localName === 'iframe' || el.localName === 'frame';

  /** A landmark that frames the page rather than being content (the ARIA mapping of header/footer included). */
  const isChromeLandmark = (el: Element): boolean => {
    const role = el.getAttribute('role');
    if (role) {
      return LANDMARK_ROLES.has(role.trim().split(/\s+/)[0] ?? '');
    }
    const name = el.localName;
    if (name === 'nav' || name === 'aside' || name === 'search') {
      return true;
    }
    return (name === 'header' || name === 'footer') && !el.parentElement?.closest(SECTIONING);
  };

  const rendered = (el: Element): boolean => {
    if (el.getAttribute('aria-hidden') === 'true') {
      return false;
    }
    const checkable = el as Element & {checkVisibility?: (this: Element, o: object) => boolean};
    if (typeof checkable.checkVisibility === 'function') {
      return checkable.checkVisibility({checkVisibilityCSS: true}) || getComputedStyle(el).display === 'contents';
    }
    return getComputedStyle(el).display !== 'none';
  };

  /** Children in the composed tree: a shadow root's, with slots replaced by what is assigned to them. */
  const composedChildren = (node: Node): Node[] => {
    const el = node as Element;
    if (el.nodeType === 1 && el.localName === 'slot') {
      const assigned = (el as HTMLSlotElement).assignedNodes();
      return assigned.length ? assigned : [...el.childNodes];
    }
    const shadow = el.nodeType === 1 ? el.shadowRoot : null;
    return [...(shadow ?? node).childNodes];
  };

  const collectFrames = (root: Node) => {
    const found: Element[] = [];
    const walk = (node: Node, dropLandmarks: boolean) => {
      for (const child of composedChildren(node)) {
        if (child.nodeType !== 1) {
          continue;
        }
        const el = child as Element;
        if (SKIPPED.has(el.tagName.toUpperCase()) || !rendered(el) || (dropLandmarks && isChromeLandmark(el))) {
          continue;
        }
        if (isFrame(el)) {
          found.push(el);
        } else {
          walk(el, dropLandmarks);
        }
      }
    };
    walk(root, root === document.body || root === document.documentElement);
    return found;
  };

  /** Copies `root` into `doc` along the composed tree, as described above. */
  const copyTree = (root: Node, doc: Document, frames: Record<number, string>, dropLandmarks: boolean): Node => {
    const copy = (node: Node): Node | null => {
      if (node.nodeType === 3) {
        return doc.createTextNode(node.nodeValue ?? '');
      }
      if (node.nodeType !== 1) {
        return null;
      }
      const el = node as Element;
      if (SKIPPED.has(el.tagName.toUpperCase()) || !rendered(el) || (dropLandmarks && isChromeLandmark(el))) {
        return null;
      }
      if (isFrame(el)) {
        const index = frameList.indexOf(el);
        const html = frames[index];
        if (html === undefined) {
          return null;
        }
        const box = doc.createElement('div');
        box.innerHTML = html;
        return box;
      }
      const out = doc.createElement(el.localName.includes('-') ? 'div' : el.localName);
      for (const name of ['colspan', 'rowspan', 'alt', 'title', 'lang', 'dir', 'start', 'type', 'role']) {
        const value = el.getAttribute(name);
        if (value !== null) {
          out.setAttribute(name, value);
        }
      }
      if (el instanceof HTMLAnchorElement && el.href) {
        out.setAttribute('href', el.href);
      } else if (el instanceof HTMLImageElement && (el.currentSrc || el.src)) {
        out.setAttribute('src', el.currentSrc || el.src);
      }
      for (const child of composedChildren(el)) {
        const c = copy(child);
        if (c) {
          out.appendChild(c);
        }
      }
      return out;
    };
    return copy(root) ?? doc.createElement('div');
  };

  const freshDocument = (): Document => {
    const doc = document.implementation.createHTMLDocument(document.title);
    const base = doc.createElement('base');
    base.href = document.baseURI;
    doc.head.appendChild(base);
    return doc;
  };

  const turndown = (format: 'markdown' | 'text') => {
    const service = new TurndownService({
      headingStyle: 'atx',
      hr: '---',
      bulletListMarker: '-',
      codeBlockStyle: 'fenced',
      emDelimiter: '_',
      linkStyle: 'inlined',
    });
    service.use(plugin => gfm.gfm(plugin));
    // One space after list markers (Turndown pads to four); nested content indents to match.
    service.addRule('listItem', {
      filter: 'li',
      replacement: (content: string, node: Element) => {
        const parent = node.parentNode as Element | null;
        let prefix = '- ';
        if (parent?.nodeName === 'OL') {
          const start = Number(parent.getAttribute('start') ?? '1') || 1;
          prefix = `${start + Array.prototype.indexOf.call(parent.children, node)}. `;
        }
        const body = content
          .replace(/^\n+/, '')
          .replace(/\n+$/, '\n')
          .replace(/\n/gm, `\n${' '.repeat(prefix.length)}`);
        return prefix + body + (node.nextSibling && !/\n$/.test(body) ? '\n' : '');
      },
    });
    const safeUrl = (url: string | null) => Boolean(url && /^https?:/i.test(url));
    service.addRule('image', {
      filter: 'img',
      replacement: (_: string, node: Element) => {
        const alt = (node.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim();
        if (!alt) {
          return '';
        }
        const src = node.getAttribute('src');
        return format === 'markdown' && safeUrl(src) ? `![${alt}](${src})` : `[image: ${alt}]`;
      },
    });
    service.addRule('link', {
      filter: (node: Element) => node.nodeName === 'A',
      replacement: (content: string, node: Element) => {
        const href = node.getAttribute('href');
        const text = content.replace(/\s+/g, ' ').trim();
        if (format === 'text' || !text || !safeUrl(href)) {
          return text;
        }
        return `[${text}](${href})`;
      },
    });
    if (format === 'text') {
      service.escape = (text: string) => text;
      service.addRule('plainHeading', {
        filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
        replacement: (content: string) => `\n\n${content.trim()}\n\n`,
      });
      service.addRule('plainInline', {
        filter: ['strong', 'b', 'em', 'i', 'code', 'del', 's', 'strike', 'mark', 'u'],
        replacement: (content: string) => content,
      });
    }
    return service;
  };

  /*
   * Turndown renders a blank block (only whitespace inside, nothing void or
   * meaningful-when-blank: its own lists) as a paragraph break whatever it
   * holds, yet searches it for void elements once per element inside: a
   * list of 5000 icon buttons cost seconds. Emptying blank blocks first gives
   * the same text. Inline ones keep their content: their whitespace counts.
   */
  const TD_BLOCK = new Set(
    'ADDRESS ARTICLE ASIDE AUDIO BLOCKQUOTE BODY CANVAS CENTER DD DIR DIV DL DT FIELDSET FIGCAPTION FIGURE FOOTER FORM FRAMESET H1 H2 H3 H4 H5 H6 HEADER HGROUP HR HTML ISINDEX LI MAIN MENU NAV NOFRAMES NOSCRIPT OL OUTPUT P PRE SECTION TABLE TBODY TD TFOOT TH THEAD TR UL'.split(
      ' ',
    ),
  );
  const TD_VOID = new Set(
    'AREA BASE BR COL COMMAND EMBED HR IMG INPUT KEYGEN LINK META PARAM SOURCE TRACK WBR'.split(' '),
  );
  const TD_MEANINGFUL = new Set('A TABLE THEAD TBODY TFOOT TH TD IFRAME SCRIPT AUDIO VIDEO'.split(' '));
  /** Whether `node` is blank for Turndown; empties the blank blocks under it (and itself). */
  const emptyBlankBlocks = (node: Node): boolean => {
    if (node.nodeType === 3) {
      return /^\s*$/.test(node.nodeValue ?? '');
    }
    if (node.nodeType !== 1) {
      return false;
    }
    const name = node.nodeName;
    let blank = !TD_VOID.has(name) && !TD_MEANINGFUL.has(name);
    for (const child of [...node.childNodes]) {
      blank = emptyBlankBlocks(child) && blank;
    }
    if (blank && TD_BLOCK.has(name) && node.firstChild) {
      (node as Element).replaceChildren();
    }
    return blank;
  };

  const tidy = (text: string) =>
    text
      .replace(/[ \t]+$/gm, '')
      .replace(/\n{3,}/g, '\n\n')
      .trim();

  return {
    frames(root) {
      frameList = collectFrames(root ?? document.body ?? document.documentElement);
      return frameList.length;
    },
    frameAt(index) {
      return frameList[index];
    },
    html(root, frames) {
      const doc = freshDocument();
      const start = root ?? document.body ?? document.documentElement;
      return (copyTree(start, doc, frames, !root) as Element).innerHTML ?? '';
    },
    extract(root, frames, format) {
      const doc = freshDocument();
      const start = root ?? document.body ?? document.documentElement;
      const copy = copyTree(start, doc, frames, !root);
      doc.body.appendChild(copy);
      let source: AgentText['source'] = root ? 'element' : 'page';
      let title = document.title;
      let content: Node = doc.body;
      if (!root) {
        const main = doc.body.querySelector('main, [role=main]');
        if (isProbablyReaderable(doc)) {
          const article = new Readability(doc.cloneNode(true) as Document, {keepClasses: false}).parse();
          if (article?.content) {
            const holder = doc.createElement('div');
            holder.innerHTML = article.content;
            content = holder;
            source = 'article';
            title = article.title || title;
          }
        }
        if (source === 'page' && main) {
          content = main;
          source = 'main';
        }
      }
      emptyBlankBlocks(content);
      const text = tidy(turndown(format).turndown(content));
      const withTitle =
        source === 'article' && title ? `${format === 'markdown' ? '# ' : ''}${title}\n\n${text}` : text;
      return {title, source, text: withTitle};
    },
  };
}
