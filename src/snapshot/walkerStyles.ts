/**
 * Which elements may have CSS generated content or a ::first-letter /
 * ::first-line case change, for the in-page walk (walker.ts). Serialized
 * into the page with the walker, so `walkerStyles` must stay self-contained.
 *
 * Asking getComputedStyle(el, '::before') for every element costs more than
 * the rest of the walk, so the page's style sheets are read first (per tree
 * scope: the document and each shadow root): only elements some rule with
 * such a pseudo-element selector matches are asked. A sheet that cannot be
 * read (cross-origin) or a selector that cannot be matched from outside
 * (:host, ::slotted, ::part, nesting) makes every element of that scope a
 * candidate: slower, never wrong.
 */
// Runs in the page, sent whole as one function (the 60-line limit does not apply).
export function walkerStyles(): unknown {
  const PSEUDO = /::?(before|after)(?![\w-])/i;
  const FIRST = /::?first-(letter|line)(?![\w-])/i;
  /** Elements a pseudo-element or first-letter/line rule may apply to, per tree scope ('all' when unknown). */
  type Scope = {pseudo: Set<Element> | 'all'; first: Set<Element> | 'all'};
  let scopes = new Map<Document | ShadowRoot, Scope>();
  let partPseudo = false;

  const splitSelectors = (text: string): string[] => {
    const out: string[] = [];
    let depth = 0;
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (ch === '(' || ch === '[') {
        depth++;
      } else if (ch === ')' || ch === ']') {
        depth--;
      } else if (ch === ',' && depth === 0) {
        out.push(text.slice(start, i));
        start = i + 1;
      }
    }
    out.push(text.slice(start));
    return out;
  };
  const collect = (root: Document | ShadowRoot, selector: string, re: RegExp, into: Set<Element>): boolean => {
    for (const one of splitSelectors(selector)) {
      if (!re.test(one)) {
        continue;
      }
      if (/:host|::slotted|::part|&|:scope/i.test(one)) {
        if (/::part/i.test(one)) {
          partPseudo = true;
        }
        return false;
      }
      const stripped = one.replace(new RegExp(re.source, 'gi'), '').trim() || '*';
      try {
        for (const el of root.querySelectorAll(stripped)) {
          into.add(el);
        }
      } catch {
        return false;
      }
    }
    return true;
  };
  const scopeOf = (root: Document | ShadowRoot): Scope => {
    let scope = scopes.get(root);
    if (scope) {
      return scope;
    }
    const pseudo = new Set<Element>();
    const first = new Set<Element>();
    let pseudoAll = false;
    let firstAll = false;
    const visitRules = (list: CSSRuleList) => {
      for (const rule of list) {
        if (pseudoAll && firstAll) {
          return;
        }
        if (rule instanceof CSSStyleRule) {
          const text = rule.selectorText;
          if (!pseudoAll && PSEUDO.test(text) && !collect(root, text, PSEUDO, pseudo)) {
            pseudoAll = true;
          }
          if (!firstAll && FIRST.test(text) && !collect(root, text, FIRST, first)) {
            firstAll = true;
          }
          if (rule.cssRules.length > 0) {
            // Nested rules: their selectors are relative; do not try to resolve them.
            const nested = [...rule.cssRules].some(
              r => r instanceof CSSStyleRule && /::?(before|after|first-)/i.test(r.selectorText),
            );
            if (nested) {
              pseudoAll = firstAll = true;
            }
          }
        } else if (rule instanceof CSSImportRule) {
          try {
            if (rule.styleSheet) {
              visitRules(rule.styleSheet.cssRules);
            }
          } catch {
            pseudoAll = firstAll = true;
          }
        } else if ('cssRules' in rule) {
          visitRules((rule as CSSGroupingRule).cssRules);
        }
      }
    };
    const sheets = [...root.styleSheets, ...(root.adoptedStyleSheets ?? [])];
    for (const sheet of sheets) {
      try {
        visitRules(sheet.cssRules);
      } catch {
        // Cross-origin sheet: its rules cannot be read, so any element may have generated content.
        pseudoAll = firstAll = true;
      }
    }
    scope = {pseudo: pseudoAll ? 'all' : pseudo, first: firstAll ? 'all' : first};
    scopes.set(root, scope);
    return scope;
  };
  const inSet = (set: Set<Element> | 'all', el: Element) => set === 'all' || set.has(el);
  /** 0: no ::before/::after, 1: only empty ones (content: ""), 2: generated text or images. */
  let pseudoKinds = new Map<Element, number>();
  const pseudoKind = (el: Element): number => {
    let kind = pseudoKinds.get(el);
    if (kind === undefined) {
      kind = computePseudoKind(el);
      pseudoKinds.set(el, kind);
    }
    return kind;
  };
  const computePseudoKind = (el: Element): number => {
    const scope = scopeOf(el.getRootNode() as Document | ShadowRoot);
    // Rules of other scopes reach an element through :host (its own shadow root), ::slotted (the slot's) and ::part.
    const own = el.shadowRoot ? scopeOf(el.shadowRoot).pseudo === 'all' : false;
    const slot = el.assignedSlot;
    const slotted = slot ? scopeOf(slot.getRootNode() as Document | ShadowRoot).pseudo === 'all' : false;
    if (!inSet(scope.pseudo, el) && !own && !slotted && !(partPseudo && el.hasAttribute('part'))) {
      return 0;
    }
    let kind = 0;
    for (const which of ['::before', '::after']) {
      const content = getComputedStyle(el, which).content;
      if (content === 'none' || content === 'normal') {
        continue;
      }
      kind = Math.max(kind, content === '""' ? 1 : 2);
    }
    return kind;
  };
  /** A ::first-letter or ::first-line rule changes the text's case: only Chrome knows the result. */
  const firstLineTransforms = (el: Element, style: CSSStyleDeclaration): boolean => {
    const scope = scopeOf(el.getRootNode() as Document | ShadowRoot);
    if (!inSet(scope.first, el)) {
      return false;
    }
    return (
      getComputedStyle(el, '::first-letter').textTransform !== style.textTransform ||
      getComputedStyle(el, '::first-line').textTransform !== style.textTransform
    );
  };

  const reset = () => {
    scopes = new Map();
    partPseudo = false;
    pseudoKinds = new Map();
  };
  return {reset, pseudoKind, firstLineTransforms};
}
