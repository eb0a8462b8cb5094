/**
 * The in-page half of the snapshot cache (axCache.ts): in our isolated world
 * of a frame's document, a watch that tells whether anything that can change
 * Chrome's accessibility tree of that document changed since the watch was
 * last armed. It answers '' (nothing changed) or the reason it cannot say so,
 * and arms itself again. The other half, read right after it answered,
 * is the session's style and layout counts (Performance.getMetrics):
 * the watch first brings style and layout up to date, so any pending change
 * that reaches rendering (CSSOM rule edits, :hover and other state-only
 * selectors, media and container queries, animations, fonts, images, the
 * content of closed shadow roots) is counted before the counts are read.
 *
 * What the watch itself covers, because it reaches the AX tree without
 * always going through style or layout:
 * - DOM mutations (child lists, attributes, text) in the document and in
 *   every open shadow root, by a MutationObserver (records taken
 *   synchronously, so none waits for delivery);
 * - form state, which no mutation reports: value, checked, indeterminate,
 *   validity and the selection of inputs, text areas and selects;
 * - focus (the active element down through open shadow roots, whether it
 *   shows :focus-visible, whether the document has focus) and the URL
 *   (relative links resolve against it; :target follows its hash);
 * - media elements' playing state.
 *
 * What it cannot cover, and so answers "changed" for as long as the
 * document holds one:
 * - a defined autonomous custom element: it may hold ElementInternals,
 *   whose ARIA properties and role change Chrome's tree with no mutation,
 *   no style change and nothing the page can read, and may host a closed
 *   shadow root whose attributes the observer cannot see;
 * - an undefined one that gets defined (its upgrade runs the same code).
 *
 * Runs in the page, sent whole as one function: its inner functions are the page's.
 */
export function axWatch(): string {
  const KEY = Symbol.for('cdp-mcp.axwatch');
  const OPTIONS = {subtree: true, childList: true, attributes: true, characterData: true};
  interface Watch {
    armed: boolean;
    dirty: string;
    observer: MutationObserver;
    controls: Element[];
    media: HTMLMediaElement[];
    undefinedCustom: Element[];
    custom: string;
    state: string;
    ids: WeakMap<object, number>;
    next: number;
  }
  const scope = globalThis as unknown as Record<symbol, Watch | undefined>;
  let watch = scope[KEY];
  if (!watch) {
    const made: Watch = {
      armed: false,
      dirty: '',
      observer: new MutationObserver(() => {
        made.dirty ||= 'mutation';
      }),
      controls: [],
      media: [],
      undefinedCustom: [],
      custom: '',
      state: '',
      ids: new WeakMap(),
      next: 1,
    };
    watch = scope[KEY] = made;
  }
  const w = watch;
  const idOf = (node: object | null): number => {
    if (!node) {
      return 0;
    }
    let id = w.ids.get(node);
    if (id === undefined) {
      id = w.next++;
      w.ids.set(node, id);
    }
    return id;
  };
  const stateOf = (): string => {
    const parts: unknown[] = [location.href, document.hasFocus()];
    let active: Element | null = document.activeElement;
    let last: Element | null = null;
    while (active) {
      parts.push(idOf(active));
      last = active;
      active = active.shadowRoot?.activeElement ?? null;
    }
    parts.push(last ? last.matches(':focus-visible') : false);
    for (const el of w.controls) {
      if (el instanceof HTMLInputElement) {
        parts.push(el.type, el.value, el.checked, el.indeterminate, el.validity.valid);
      } else if (el instanceof HTMLTextAreaElement) {
        parts.push(el.value, el.validity.valid);
      } else if (el instanceof HTMLSelectElement) {
        parts.push(el.selectedIndex, el.validity.valid);
        if (el.multiple) {
          for (const option of el.options) {
            parts.push(option.selected);
          }
        }
      }
    }
    for (const el of w.media) {
      parts.push(el.paused, el.readyState, el.muted, el.ended);
    }
    return JSON.stringify(parts);
  };

  // Style and layout brought up to date: the counts read next include every pending change.
  document.documentElement?.getBoundingClientRect();
  let reason = w.armed ? w.dirty : 'new document';
  if (!reason && w.custom) {
    reason = `custom element <${w.custom}>`;
  }
  if (!reason && w.observer.takeRecords().length) {
    reason = 'mutation';
  }
  if (!reason && w.undefinedCustom.some(el => el.matches(':defined'))) {
    reason = 'custom element defined';
  }
  if (!reason && stateOf() !== w.state) {
    reason = 'form, focus or URL state';
  }
  if (!reason) {
    return '';
  }
  // Arm again: observe the document and every open shadow root, list the elements whose state is read.
  w.observer.disconnect();
  w.observer.observe(document, OPTIONS);
  const controls: Element[] = [];
  const media: HTMLMediaElement[] = [];
  const undefinedCustom: Element[] = [];
  let custom = '';
  const visit = (root: Document | ShadowRoot) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node as Element;
      const name = el.localName;
      if (name.includes('-')) {
        if (el.matches(':defined')) {
          custom ||= name;
        } else {
          undefinedCustom.push(el);
        }
      } else if (name === 'input' || name === 'textarea' || name === 'select') {
        controls.push(el);
      } else if (el instanceof HTMLMediaElement) {
        media.push(el);
      }
      const shadow = el.shadowRoot;
      if (shadow) {
        w.observer.observe(shadow, OPTIONS);
        visit(shadow);
      }
    }
  };
  visit(document);
  w.controls = controls;
  w.media = media;
  w.undefinedCustom = undefinedCustom;
  w.custom = custom;
  w.state = stateOf();
  w.observer.takeRecords();
  w.dirty = '';
  w.armed = true;
  return reason;
}
