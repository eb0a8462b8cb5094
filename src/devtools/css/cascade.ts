import type {CssBundle, CssProperty, CssRuleLike, DomNode, MatchedStyles, StyleDeclaration} from './bundle.js';

/**
 * Turns DevTools' CSSMatchedStyles into the rule list chrome-devtools-mcp 1.11
 * prints for get_css_styles: node styles in cascade order (inline, matched
 * rules, inherited ones), then pseudo-elements and keyframes, each rule with
 * its source, wrapping at-rules and per-declaration state.
 */

export type PropertyStatus = 'active' | 'overloaded' | 'invalid' | 'disabled';

export interface CascadeProperty {
  name: string;
  value: string;
  status: PropertyStatus;
  important: boolean;
}

/** A wrapping at-rule or nesting level, outermost first. */
export interface Ancestor {
  header: string;
  comment?: string;
}

export interface CascadeRule {
  kind: 'rule' | 'inherited' | 'pseudo' | 'keyframes';
  /** `selector (source)` or just the selector. */
  header: string;
  ancestors: Ancestor[];
  properties: CascadeProperty[];
  /** inherited: `Inherited from <selector> (uid: …):`; pseudo: the comment line. */
  label?: string;
  /** keyframes: one block per step. */
  steps?: Array<{key: string; properties: CascadeProperty[]}>;
}

export interface CascadeOptions {
  /** The uid of a DOM node in the latest snapshot. */
  resolveUid(backendNodeId: number): string | undefined;
  /** Container element of each @container query, resolved beforehand. */
  containers: Map<unknown, DomNode>;
}

/** A CSSStyleRule (a selector rule, as opposed to keyframes and at-rules). */
type StyleRule = CssRuleLike & {selectorText(): string; lineNumberInSource(selectorIndex: number): number};

const STATE: Record<string, PropertyStatus> = {Active: 'active', Overloaded: 'overloaded'};

export class CascadeCollector {
  constructor(
    readonly sdk: CssBundle,
    readonly matched: MatchedStyles,
    readonly options: CascadeOptions,
  ) {}

  collect(): CascadeRule[] {
    const rules: CascadeRule[] = [];
    this.#nodeStyles(rules);
    this.#pseudoStyles(rules);
    this.#keyframes(rules);
    return rules;
  }

  get elementSelector(): string {
    return this.matched.node().simpleSelector();
  }

  #isStyleRule(rule: CssRuleLike | null | undefined): rule is StyleRule {
    return rule instanceof this.sdk.CSSRule.CSSStyleRule;
  }

  #nodeStyles(rules: CascadeRule[]): void {
    const Type = this.sdk.CSSStyleDeclaration.Type;
    for (const style of this.matched.nodeStyles()) {
      const properties = propertiesOf(style);
      if (!properties.length) {
        continue;
      }
      if (this.matched.isInherited(style)) {
        const inherited = this.#inheritedRule(style, properties);
        if (inherited) {
          rules.push(inherited);
        }
      } else if ([Type['Transition'], Type['Animation'], Type['Attributes'], Type['Inline']].includes(style.type)) {
        rules.push({
          kind: 'rule',
          header: this.#styleSelector(style),
          ancestors: [],
          properties: this.#format(properties),
        });
      } else if (this.#isStyleRule(style.parentRule)) {
        rules.push(this.#styleRule(style.parentRule, this.#format(properties)));
      }
    }
  }

  #styleRule(rule: CssRuleLike, properties: CascadeProperty[], selector = rule.selectorText?.() ?? ''): CascadeRule {
    return {kind: 'rule', header: `${selector} (${this.#source(rule)})`, ancestors: this.#ancestors(rule), properties};
  }

  #inheritedRule(style: StyleDeclaration, properties: CssProperty[]): CascadeRule | undefined {
    const node = this.#ownerNode(style);
    const inheritable = properties.filter(p => this.#inheritable(p, false));
    if (!node || !inheritable.length) {
      return undefined;
    }
    const rule = this.#isStyleRule(style.parentRule) ? style.parentRule : undefined;
    const selector = this.#styleSelector(style) || 'element.style';
    return {
      kind: 'inherited',
      label: `Inherited from ${node}:`,
      header: rule ? `${selector} (${this.#source(rule)})` : selector,
      ancestors: rule ? this.#ancestors(rule) : [],
      properties: this.#format(inheritable),
    };
  }

  #pseudoStyles(rules: CascadeRule[]): void {
    const metadata = this.sdk.CSSMetadata.cssMetadata();
    const lists: Array<[string, StyleDeclaration[], boolean]> = [];
    for (const name of this.matched.customHighlightPseudoNames()) {
      lists.push([`::highlight(${name})`, this.matched.customHighlightPseudoStyles(name), true]);
    }
    for (const type of this.matched.pseudoTypes()) {
      lists.push([`::${type}`, this.matched.pseudoStyles(type), metadata.isHighlightPseudoType(type)]);
    }
    for (const [pseudoType, styles, highlight] of lists) {
      for (const style of styles) {
        const all = propertiesOf(style);
        const owner = this.matched.isInherited(style) ? this.matched.nodeForStyle(style) : null;
        const properties = owner ? all.filter(p => this.#inheritable(p, highlight)) : all;
        if (!properties.length) {
          continue;
        }
        const rule = this.#isStyleRule(style.parentRule) ? style.parentRule : undefined;
        const from = owner ? ` (inherited from ${this.#nodeLabel(owner, ', uid: "', '"')})` : '';
        const selector = rule?.selectorText?.() ?? pseudoType;
        rules.push({
          kind: 'pseudo',
          label: `/* Pseudo ${pseudoType} element${from} */`,
          header: rule ? `${selector} (${this.#source(rule)})` : selector,
          ancestors: rule ? this.#ancestors(rule) : [],
          properties: this.#format(properties),
        });
      }
    }
  }

  #keyframes(rules: CascadeRule[]): void {
    for (const keyframes of this.matched.keyframes()) {
      const name = keyframes.name().text;
      let source: string | undefined;
      const steps = [];
      for (const keyframe of keyframes.keyframes()) {
        const properties = propertiesOf(keyframe.style);
        if (properties.length) {
          source ??= this.#source(keyframe as unknown as CssRuleLike);
          steps.push({key: keyframe.key().text, properties: this.#format(properties)});
        }
      }
      if (steps.length) {
        const header = `@keyframes ${name}${source ? ` (${source})` : ''}`;
        rules.push({kind: 'keyframes', header, ancestors: [], properties: [], steps});
      }
    }
  }

  #styleSelector(style: StyleDeclaration): string {
    const Type = this.sdk.CSSStyleDeclaration.Type;
    switch (style.type) {
      case Type['Transition']:
        return 'transitions style';
      case Type['Animation']: {
        const name = style.animationName();
        return name ? `${name} animation` : 'animation style';
      }
      case Type['Attributes']: {
        const tag = this.matched.nodeForStyle(style)?.nodeNameInCorrectCase() ?? '';
        return tag ? `${tag}[attributes style]` : '[attributes style]';
      }
      case Type['Inline']:
        return 'element.style';
      default:
        return this.#isStyleRule(style.parentRule) ? (style.parentRule.selectorText?.() ?? '') : '';
    }
  }

  /** `body (uid: "1_0")`-style label of the element a style was inherited from. */
  #ownerNode(style: StyleDeclaration): string | undefined {
    const node = this.matched.nodeForStyle(style);
    return node ? this.#nodeLabel(node, ' (uid: "', '")') : undefined;
  }

  #nodeLabel(node: DomNode, before: string, after: string): string {
    const uid = this.options.resolveUid(node.backendNodeId());
    return `${node.simpleSelector()}${uid ? `${before}${uid}${after}` : ''}`;
  }

  #inheritable(property: CssProperty, highlight: boolean): boolean {
    const metadata = this.sdk.CSSMetadata.cssMetadata();
    if (highlight) {
      return !metadata.isCustomProperty(property.name);
    }
    if (metadata.isCustomProperty(property.name)) {
      const registered = this.matched.getRegisteredProperty(property.name);
      if (registered) {
        return registered.inherits();
      }
    }
    return metadata.isPropertyInherited(property.name);
  }

  #format(properties: CssProperty[]): CascadeProperty[] {
    return properties.map(p => {
      const status: PropertyStatus =
        p.parsedOk === false
          ? 'invalid'
          : p.disabled
            ? 'disabled'
            : (STATE[this.matched.propertyState(p) ?? ''] ?? 'active');
      const important = Boolean(p.important);
      const value = important ? p.value.replace(/\s*!\s*important$/i, '').trimEnd() : p.value;
      return {name: p.name, value, status, important};
    });
  }

  /** Where a rule comes from: `user agent stylesheet`, `<style>:3`, `index:1`, `site.css:12`, … */
  #source(rule: CssRuleLike): string {
    if (rule.isUserAgent?.()) {
      return 'user agent stylesheet';
    }
    if (rule.isInjected?.()) {
      return 'injected stylesheet';
    }
    if (rule.isViaInspector?.()) {
      return 'via inspector';
    }
    if (rule.header?.isConstructedByNew() && !rule.sourceURL) {
      return 'constructed stylesheet';
    }
    let line = '';
    if (this.#isStyleRule(rule)) {
      const index = rule.lineNumberInSource(0);
      if (index >= 0) {
        line = `:${index + 1}`;
      }
    } else if (rule.header && rule.style?.range) {
      line = `:${rule.header.lineNumberInSource(rule.style.range.startLine) + 1}`;
    }
    if (!rule.sourceURL) {
      return `<style>${line}`;
    }
    const url = new this.sdk.Common.ParsedURL.ParsedURL(rule.sourceURL);
    const file = url.isDataURL() ? 'data-uri' : url.isBlobURL() ? 'blob' : url.lastPathComponent || 'index';
    return `${file}${line}`;
  }

  /** @media, @container, @layer, @scope, @supports, @starting-style and nesting around a rule, outermost first. */
  #ancestors(rule: CssRuleLike): Ancestor[] {
    const next = {media: 0, container: 0, layer: 0, scope: 0, supports: 0, nesting: 0};
    const ancestors: Ancestor[] = [];
    for (const type of rule.ruleTypes ?? []) {
      let ancestor: Ancestor | undefined;
      switch (type) {
        case 'MediaRule': {
          const query = rule.media?.[next.media++]?.text;
          ancestor = query ? {header: `@media ${query}`} : undefined;
          break;
        }
        case 'ContainerRule': {
          const query = rule.containerQueries?.[next.container++];
          if (query) {
            const container = this.options.containers.get(query);
            const prefix = query.name && !query.text.startsWith(query.name) ? `${query.name} ` : '';
            ancestor = {
              header: `@container ${prefix}${query.text}`,
              ...(container ? {comment: `/* container: ${this.#nodeLabel(container, ' (uid: "', '")')} */`} : {}),
            };
          }
          break;
        }
        case 'LayerRule': {
          const layer = rule.layers?.[next.layer++];
          ancestor = layer ? {header: layer.text ? `@layer ${layer.text}` : '@layer'} : undefined;
          break;
        }
        case 'ScopeRule': {
          const scope = rule.scopes?.[next.scope++];
          ancestor = scope ? {header: scope.text.trim() ? `@scope ${scope.text.trim()}` : '@scope'} : undefined;
          break;
        }
        case 'SupportsRule': {
          const query = rule.supports?.[next.supports++]?.text;
          ancestor = query ? {header: `@supports ${query}`} : undefined;
          break;
        }
        case 'StartingStyleRule':
          ancestor = {header: '@starting-style'};
          break;
        case 'StyleRule': {
          const selector = rule.nestingSelectors?.[next.nesting++];
          ancestor = selector ? {header: selector} : undefined;
          break;
        }
      }
      if (ancestor) {
        ancestors.push(ancestor);
      }
    }
    return ancestors.reverse();
  }
}

function propertiesOf(style: StyleDeclaration): CssProperty[] {
  return style.leadingProperties?.() ?? style.allProperties();
}

/** The text of one page of rules, as the reference prints it. */
export function formatCascade(elementSelector: string, uid: string, rules: CascadeRule[]): string {
  const lines = [`Styles for ${elementSelector} (uid: "${uid}"):`];
  if (!rules.length) {
    lines.push('', '  (no styles)');
    return lines.join('\n');
  }
  const property = (p: CascadeProperty) =>
    `${p.status === 'active' ? '' : `[${p.status}] `}${p.name}: ${p.value}${p.important ? ' !important' : ''};`;
  for (const rule of rules) {
    lines.push('');
    let indent = 2;
    const write = (text: string) => lines.push(`${' '.repeat(indent)}${text}`);
    if (rule.kind === 'inherited') {
      write(rule.label ?? '');
      indent += 2;
    } else if (rule.kind === 'pseudo') {
      write(rule.label ?? '');
    }
    for (const ancestor of rule.ancestors) {
      if (ancestor.comment) {
        write(ancestor.comment);
      }
      write(`${ancestor.header} {`);
      indent += 2;
    }
    write(`${rule.header} {`);
    indent += 2;
    if (rule.kind === 'keyframes') {
      for (const step of rule.steps ?? []) {
        write(`${step.key} {`);
        indent += 2;
        step.properties.forEach(p => write(property(p)));
        indent -= 2;
        write('}');
      }
    } else {
      rule.properties.forEach(p => write(property(p)));
    }
    for (let i = 0; i <= rule.ancestors.length; i++) {
      indent -= 2;
      write('}');
    }
  }
  return lines.join('\n');
}
