/**
 * The part of DevTools' SDK (targets, DOM and CSS models) we call, typed
 * structurally (the bundle itself is untyped JavaScript).
 */

export interface DomNode {
  readonly id: number;
  backendNodeId(): number;
  simpleSelector(): string;
  nodeNameInCorrectCase(): string;
  enclosingElementOrSelf(): DomNode | null;
  /** A shadow root's is its host. */
  readonly parentNode: DomNode | null;
  /** The nearest shadow root the node is in (itself for a shadow root). */
  ancestorShadowRoot(): DomNode | null;
  /** 'open', 'closed' or 'user-agent' for a shadow root; null for other nodes. */
  shadowRootType(): string | null;
}

export interface DomModel {
  pushNodesByBackendIdsToFrontend(ids: Set<number>): Promise<Map<number, DomNode | null> | null>;
  requestDocument(): Promise<unknown>;
}

/** DevTools' CSSMatchedStyles (core/sdk/CSSMatchedStyles.ts), the calls the formatter makes. */
export interface MatchedStyles {
  node(): DomNode;
  nodeStyles(): StyleDeclaration[];
  isInherited(style: StyleDeclaration): boolean;
  nodeForStyle(style: StyleDeclaration): DomNode | null;
  propertyState(property: CssProperty): string | null;
  getMatchingSelectors(rule: CssRuleLike): number[];
  getRegisteredProperty(name: string): {inherits(): boolean} | undefined;
  pseudoTypes(): Set<string>;
  pseudoStyles(type: string): StyleDeclaration[];
  customHighlightPseudoNames(): Set<string>;
  customHighlightPseudoStyles(name: string): StyleDeclaration[];
  keyframes(): Array<{name(): {text: string}; keyframes(): Array<{key(): {text: string}; style: StyleDeclaration}>}>;
}

export interface StyleDeclaration {
  readonly type: string;
  readonly parentRule: CssRuleLike | null;
  leadingProperties(): CssProperty[];
  allProperties(): CssProperty[];
  animationName(): string | undefined;
}

export interface CssProperty {
  readonly name: string;
  readonly value: string;
  readonly important: boolean;
  readonly disabled: boolean;
  readonly parsedOk: boolean;
}

export interface CssRuleLike {
  readonly selectors?: Array<{text: string}>;
  readonly sourceURL?: string;
  readonly header?: {isConstructedByNew(): boolean; lineNumberInSource(line: number): number} | null;
  readonly style?: {range?: {startLine: number} | null} | null;
  readonly ruleTypes?: string[];
  readonly media?: Array<{text: string}>;
  readonly containerQueries?: Array<{text: string; name?: string}>;
  readonly layers?: Array<{text: string}>;
  readonly scopes?: Array<{text: string}>;
  readonly supports?: Array<{text: string}>;
  readonly nestingSelectors?: string[];
  isUserAgent(): boolean;
  isInjected(): boolean;
  isViaInspector(): boolean;
  selectorText?(): string;
  lineNumberInSource?(selectorIndex: number): number;
}

export interface CssModel {
  getMatchedStyles(nodeId: number): Promise<MatchedStyles | null>;
}

export interface SdkTarget {
  model<T>(modelClass: abstract new (...args: never[]) => T): T | null;
  dispose(reason: string): void;
}

export interface CssBundle {
  setUpDevTools(): void;
  Common: {
    Console: {Console: new () => object};
    Settings: {
      SettingsStorage: new (store: Record<string, string>) => object;
      Settings: {instance(options: Record<string, unknown>): object};
    };
    SettingRegistration: {getRegisteredSettings(): unknown[]};
    ParsedURL: {
      ParsedURL: new (url: string) => {isDataURL(): boolean; isBlobURL(): boolean; lastPathComponent: string};
    };
  };
  Host: {InspectorFrontendHost: {InspectorFrontendHostInstance: unknown}};
  Root: {
    Runtime: {
      experiments: {
        allConfigurableExperiments(): Array<{name: string}>;
        register(params: {
          name: string;
          title: string;
          aboutFlag: string;
          isEnabled: boolean;
          requiresChromeRestart: boolean;
        }): void;
      };
    };
    DevToolsContext: {
      WritableDevToolsContext: new () => {set(key: unknown, value: unknown): void};
    };
  };
  FrameManager: new (targetManager: unknown) => object;
  TargetManager: new (
    context: unknown,
    overrideAutoStartModels: Set<unknown>,
  ) => {
    createTarget(
      id: string,
      name: string,
      type: string,
      parent: null,
      sessionId: string,
      waitForDebugger: undefined,
      connection: unknown,
    ): SdkTarget;
  };
  DOMModel: {DOMModel: abstract new (...args: never[]) => DomModel};
  CSSModel: {CSSModel: abstract new (...args: never[]) => CssModel};
  CSSRule: {CSSStyleRule: abstract new (...args: never[]) => CssRuleLike};
  CSSStyleDeclaration: {Type: Record<string, string>};
  CSSMetadata: {
    cssMetadata(): {
      isCustomProperty(name: string): boolean;
      isPropertyInherited(name: string): boolean;
      isHighlightPseudoType(type: string): boolean;
    };
  };
}
