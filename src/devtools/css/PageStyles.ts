import type {Page} from '../../browser/core/Page.js';
import {errorMessage, withTimeout} from '../../util/async.js';
import {debug} from '../../util/logger.js';
import {loadCssBundle} from '../vendor.js';
import type {CssBundle, CssModel, DomModel, DomNode, MatchedStyles, SdkTarget} from './bundle.js';
import {DevToolsConnection} from './DevToolsConnection.js';

/** Bound of setting up DevTools' models on a page (attach, DOM and CSS enabled). */
const SETUP_TIMEOUT_MS = 15_000;
/** Bound of one matched-styles lookup. */
const LOOKUP_TIMEOUT_MS = 15_000;

export interface MatchedStylesResult {
  sdk: CssBundle;
  matched: MatchedStyles;
  /** Container elements of the @container queries around the matched rules. */
  containers: Map<unknown, DomNode>;
  /** The backend node id of the host of the nearest closed shadow root the element is in, if any. */
  closedHost: number | undefined;
}

/**
 * DevTools' DOM and CSS models for one page, on a CDP session of their own
 * (DevTools' node ids then never mix with ours), set up on first use and kept
 * until the page closes: CSS.enable reports every stylesheet, which the
 * models need for source locations.
 */
declare module '../../browser/core/Page.js' {
  interface PageSlots {
    styles?: PageStyles;
  }
}

export class PageStyles {
  #ready: Promise<{sdk: CssBundle; dom: DomModel; css: CssModel; target: SdkTarget}> | undefined;
  #connection: DevToolsConnection | undefined;

  private constructor(readonly page: Page) {}

  static of(page: Page): PageStyles {
    return (page.slots.styles ??= new PageStyles(page));
  }

  #setUp(): Promise<{sdk: CssBundle; dom: DomModel; css: CssModel; target: SdkTarget}> {
    this.#ready ??= withTimeout(this.#create(), SETUP_TIMEOUT_MS, 'DevTools did not set up its CSS model in time.');
    this.#ready.catch(() => (this.#ready = undefined));
    return this.#ready;
  }

  async #create(): Promise<{sdk: CssBundle; dom: DomModel; css: CssModel; target: SdkTarget}> {
    const sdk = await loadCssBundle();
    patchHostPlatform(sdk);
    const cdp = this.page.session.connection;
    // Announced first: Chrome reports the attach before it answers, and the
    // browser model must not take this session for a new page.
    this.page.auxiliaryAttaches++;
    let sessionId: string;
    try {
      ({sessionId} = await cdp.send('Target.attachToTarget', {targetId: this.page.targetId, flatten: true}));
    } catch (error) {
      this.page.auxiliaryAttaches--;
      throw error;
    }
    const session = cdp.session(sessionId, this.page.targetId, 'page');
    // The page's bound (--pageCallTimeout) for DevTools' questions too.
    session.defaultTimeoutMs = this.page.session.defaultTimeoutMs;
    const connection = new DevToolsConnection(session);
    this.#connection = connection;
    session.onDetached(() => this.#dispose());
    // A DevTools context with only what the DOM and CSS models need: no
    // debugger, network or emulation models acting on the page behind our back.
    const context = new sdk.Root.DevToolsContext.WritableDevToolsContext();
    const console = new sdk.Common.Console.Console();
    context.set(sdk.Common.Console.Console, console);
    // Source maps off: the output names the served stylesheet, and mapping would
    // fetch more. The DOM model pulls in DevTools' debugger model (through its
    // runtime model): it must never pause the page, so all pauses are skipped.
    const storage = new sdk.Common.Settings.SettingsStorage({
      'css-source-maps-enabled': 'false',
      'skip-all-pauses': 'true',
    });
    const settings = sdk.Common.Settings.Settings.instance({
      forceNew: true,
      console,
      syncedStorage: storage,
      globalStorage: storage,
      localStorage: storage,
      settingRegistrations: sdk.Common.SettingRegistration.getRegisteredSettings(),
    });
    context.set(sdk.Common.Settings.Settings, settings);
    const targetManager = new sdk.TargetManager(context, new Set());
    context.set(sdk.TargetManager, targetManager);
    context.set(sdk.FrameManager, new sdk.FrameManager(targetManager));
    const target = targetManager.createTarget('main', '', 'frame', null, sessionId, undefined, connection);
    const dom = target.model(sdk.DOMModel.DOMModel);
    const css = target.model(sdk.CSSModel.CSSModel);
    if (!dom || !css) {
      throw new Error('DevTools could not create its DOM and CSS models for this page.');
    }
    // The models enable their domains without waiting; CSS must be on before the
    // first lookup. Both asked at once: a page that does not answer (a script
    // that never yields) costs one bound here, not one per question.
    await Promise.all([dom.requestDocument(), session.send('CSS.enable', {}, session.answerBound(SETUP_TIMEOUT_MS))]);
    // Network events are collected on our own session already.
    await session.trySend('Network.disable');
    return {sdk, dom, css, target};
  }

  #dispose(): void {
    const ready = this.#ready;
    this.#ready = undefined;
    this.#connection?.dispose();
    this.#connection = undefined;
    void ready?.then(({target}) => target.dispose('page closed')).catch(() => undefined);
  }

  /** The cascade of the element (or of a text node's parent) with this backend node id. */
  async matchedStyles(backendNodeId: number, uid: string): Promise<MatchedStylesResult> {
    const {sdk, dom, css} = await this.#setUp();
    return withTimeout(
      (async () => {
        const nodes = await dom.pushNodesByBackendIdsToFrontend(new Set([backendNodeId]));
        const node = nodes?.get(backendNodeId);
        if (!node) {
          throw new Error(
            `Element with uid "${uid}" was detached or no longer exists on the page. Please take a new snapshot with take_snapshot.`,
          );
        }
        const element = node.enclosingElementOrSelf();
        if (!element) {
          throw new Error(`Element with uid "${uid}" is not an element node and has no parent element.`);
        }
        const matched = await css.getMatchedStyles(element.id);
        if (!matched) {
          throw new Error(`Could not retrieve matched styles for element with uid "${uid}".`);
        }
        return {sdk, matched, containers: await containersOf(sdk, matched, element), closedHost: closedHostOf(element)};
      })(),
      LOOKUP_TIMEOUT_MS,
      `Chrome did not return the styles of element "${uid}" within ${LOOKUP_TIMEOUT_MS / 1000} s.`,
    );
  }
}

/**
 * DevTools' stub embedder (InspectorFrontendHostStub) reads the platform from
 * navigator.userAgent, and Node 20 has no navigator: answer from Node's
 * platform instead, as the embedder would.
 */
function patchHostPlatform(sdk: CssBundle): void {
  // The debugger model asks for this experiment; DevTools' app registers it at start-up.
  if (!sdk.Root.Runtime.experiments.allConfigurableExperiments().some(e => e.name === 'instrumentation-breakpoints')) {
    sdk.Root.Runtime.experiments.register({
      name: 'instrumentation-breakpoints',
      title: '',
      aboutFlag: '',
      isEnabled: false,
      requiresChromeRestart: false,
    });
  }
  const host = sdk.Host.InspectorFrontendHost.InspectorFrontendHostInstance as {platform?: () => string};
  const platform = process.platform === 'darwin' ? 'mac' : process.platform === 'win32' ? 'windows' : 'linux';
  host.platform = () => platform;
}

/**
 * The host of the nearest closed shadow root the element is in, from DevTools'
 * model of the page (pushing the node brought its ancestors): what the page
 * would answer, without asking it. A user-agent root counts as closed, as the
 * page's script sees it.
 */
function closedHostOf(element: DomNode): number | undefined {
  for (let root = element.ancestorShadowRoot(); root; root = root.parentNode?.ancestorShadowRoot() ?? null) {
    if (root.shadowRootType() !== 'open') {
      return root.parentNode?.backendNodeId();
    }
  }
  return undefined;
}

interface ContainerQuery {
  getContainerForNode(nodeId: number): Promise<{containerNode: DomNode} | null | undefined>;
}

/** Finds the container element of every @container query around the element's rules (best effort). */
async function containersOf(sdk: CssBundle, matched: MatchedStyles, element: DomNode): Promise<Map<unknown, DomNode>> {
  const queries = new Set<ContainerQuery>();
  const styles = [...matched.nodeStyles()];
  for (const name of matched.customHighlightPseudoNames()) {
    styles.push(...matched.customHighlightPseudoStyles(name));
  }
  for (const type of matched.pseudoTypes()) {
    styles.push(...matched.pseudoStyles(type));
  }
  for (const style of styles) {
    if (style.parentRule instanceof sdk.CSSRule.CSSStyleRule) {
      for (const query of style.parentRule.containerQueries ?? []) {
        queries.add(query as unknown as ContainerQuery);
      }
    }
  }
  const containers = new Map<unknown, DomNode>();
  await Promise.all(
    [...queries].map(async query => {
      try {
        const found = await query.getContainerForNode(element.id);
        if (found) {
          containers.set(query, found.containerNode);
        }
      } catch (error) {
        debug('container query lookup failed (ignored)', errorMessage(error));
      }
    }),
  );
  return containers;
}
