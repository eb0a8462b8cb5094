/**
 * Page-level raw CDP, one entry per domain of the pinned protocol (the type
 * makes a domain added by a protocol update a compile error until it is
 * placed here). Each entry says why its default is what it is; commands
 * that can do what a switch or the sandbox forbids, or break what the server
 * relies on, have rules of their own. Chrome scopes a page session's
 * commands to that page's target and browser context, so most domains are
 * allowed; the browser-level domains go through browserLevel.ts.
 */
import {
  all,
  allow,
  type DomainTable,
  inCategory,
  navigationUrl,
  needsJavaScript,
  readPaths,
  refuse,
  type Rule,
  unless,
  whenString,
} from './rules.js';

/** Through browserLevel.ts: the same checks as with target "browser". */
const BROWSER_LEVEL: Rule = allow;

/** Domains the server enables on its sessions: disabling one blinds a collector or the model. */
const keepsEnabled = (domain: string) => refuse(`the server keeps the ${domain} domain enabled for its own work.`);
const PAUSE = refuse('a paused page would stop every tool (the server never lets the debugger pause it).');
const MARKUP = needsJavaScript('markup and attributes can carry script (event handlers, javascript: URLs, srcdoc)');
/** Text the caller sets, or nodes it moves, become script once a script element holds them (a renamed `div`, an empty inline script). */
const SCRIPT_TEXT = needsJavaScript(
  'it can turn text the caller sets into a script that runs (an element renamed to script, text moved into a script element)',
);
const CONDITION = whenString('condition', (condition, context) =>
  condition.trim() === ''
    ? undefined
    : needsJavaScript('a breakpoint condition is JavaScript run in the page')({}, context),
);
const NETWORK = inCategory('network', '--categoryNetwork');
const EMULATION = inCategory('emulation', '--categoryEmulation');
const NAVIGATION = inCategory('navigation', '--categoryNavigation');
const CONDITIONS =
  'network conditions carry --blockedUrlPattern/--allowedUrlPattern and emulate. Use emulate for throttling.';

/** Network.loadNetworkResource: fetched by the browser, past the page's own checks. */
const loadableUrl: Rule = async (params, context) => {
  const url = typeof params['url'] === 'string' ? params['url'] : '';
  if (!/^https?:/i.test(url)) {
    return 'only http(s) URLs may be fetched this way (a file: or other local URL would read outside the allowed roots).';
  }
  return (await context.switches.urlAllowed(url))
    ? undefined
    : 'the URL is blocked by --blockedUrlPattern/--allowedUrlPattern.';
};

export const PAGE_DOMAINS: DomainTable = {
  Accessibility: {why: "reads the page's accessibility tree, as take_snapshot does", default: allow},
  Ads: {why: "reads the page's ad data", default: allow},
  Animation: {why: "the page's animations; no code, no files", default: allow},
  Audits: {why: "the page's issues", default: allow, commands: {disable: keepsEnabled('Audits')}},
  Autofill: {why: "fills the page's forms with given data", default: allow},
  BackgroundService: {why: "the page's storage partition (the session's context)", default: allow},
  BluetoothEmulation: {
    why: 'emulated Bluetooth adapters were never reviewed for sessions',
    default: refuse('emulated Bluetooth is not offered.'),
  },
  Browser: {why: 'browser-level: browserLevel.ts', default: BROWSER_LEVEL},
  CSS: {why: "the page's styles; CSS runs no script", default: allow},
  CacheStorage: {why: "the page's storage partition (the session's context)", default: allow},
  Cast: {why: 'casting mirrors to devices on the local network', default: refuse('casting is not offered.')},
  Console: {why: "the page's console", default: allow},
  CrashReportContext: {why: 'reads crash report entries of the page', default: allow},
  DOM: {
    why: "the page's document; Chrome scopes node ids to the session",
    default: allow,
    commands: {
      setFileInputFiles: readPaths('files'),
      setOuterHTML: MARKUP,
      setAttributeValue: MARKUP,
      setAttributesAsText: MARKUP,
      setNodeName: SCRIPT_TEXT,
      setNodeValue: SCRIPT_TEXT,
      moveTo: SCRIPT_TEXT,
      copyTo: SCRIPT_TEXT,
    },
  },
  DOMDebugger: {why: 'DOM and event breakpoints never pause (the server skips all pauses)', default: allow},
  DOMSnapshot: {why: "reads the page's document", default: allow},
  DOMStorage: {why: "the page's storage partition (the session's context)", default: allow},
  DeviceAccess: {why: "answers the page's device prompts", default: allow},
  DeviceOrientation: {why: 'emulation of the page', category: 'emulation', default: allow},
  Debugger: {
    why: "the page's scripts; the server keeps pauses off",
    default: allow,
    commands: {
      disable: keepsEnabled('Debugger'),
      pause: PAUSE,
      setSkipAllPauses: PAUSE,
      evaluateOnCallFrame: needsJavaScript(),
      setScriptSource: needsJavaScript('it replaces a script with code the caller gives'),
      setBreakpoint: CONDITION,
      setBreakpointByUrl: CONDITION,
      setBreakpointOnFunctionCall: CONDITION,
    },
  },
  DigitalCredentials: {why: 'emulation of the page', category: 'emulation', default: allow},
  Emulation: {why: 'emulation of the page, as emulate does', category: 'emulation', default: allow},
  EventBreakpoints: {why: 'breakpoints never pause (the server skips all pauses)', default: allow},
  Extensions: {why: 'browser-level: browserLevel.ts', default: BROWSER_LEVEL},
  FedCm: {why: "answers the page's FedCM dialogs", default: allow},
  Fetch: {
    why: 'request interception belongs to the mocks and the URL policy',
    default: refuse('request interception belongs to mock_network_request. Use it (and clear_network_mocks).'),
  },
  FileSystem: {why: "the page's storage buckets (the session's context)", default: allow},
  FindInPage: {why: 'searches the page', default: allow},
  HeadlessExperimental: {why: "drives the page's frames", default: allow},
  HeapProfiler: {why: "the page's heap, as take_heapsnapshot reads it", category: 'memory', default: allow},
  IO: {
    why: 'streams and blobs: only those this session got from its own raw commands (send.ts checks)',
    default: allow,
  },
  IndexedDB: {why: "the page's storage partition (the session's context)", default: allow},
  Input: {
    why: 'input into the page, as the input tools do',
    category: 'input',
    default: allow,
    commands: {dispatchDragEvent: readPaths('files', 'data')},
  },
  Inspector: {why: 'enables inspector events', default: allow},
  LayerTree: {why: "the page's layers", default: allow},
  Log: {why: "the page's log", default: allow, commands: {disable: keepsEnabled('Log')}},
  Media: {why: "the page's media players", default: allow},
  Memory: {
    why: "the page's memory",
    category: 'memory',
    default: allow,
    commands: {
      simulatePressureNotification: refuse('memory pressure reaches the whole browser, which every session shares.'),
      setPressureNotificationsSuppressed: refuse(
        'memory pressure reaches the whole browser, which every session shares.',
      ),
      getBrowserSamplingProfile: refuse("it samples the browser process, which every session's pages use."),
    },
  },
  Network: {
    why: "the page's requests and its browser context's cookies and cache",
    default: allow,
    commands: {
      disable: keepsEnabled('Network'),
      emulateNetworkConditions: refuse(CONDITIONS),
      emulateNetworkConditionsByRule: refuse(CONDITIONS),
      overrideNetworkState: refuse('network conditions belong to emulate. Use emulate.'),
      setBlockedURLs: refuse('blocking belongs to --blockedUrlPattern/--allowedUrlPattern.'),
      setCookieControls: refuse('cookie controls reach the whole browser, which every session shares.'),
      loadNetworkResource: loadableUrl,
      getResponseBody: NETWORK,
      getRequestPostData: NETWORK,
      searchInResponseBody: NETWORK,
      streamResourceContent: NETWORK,
      replayXHR: NETWORK,
      setUserAgentOverride: EMULATION,
      setExtraHTTPHeaders: EMULATION,
    },
  },
  Overlay: {why: 'draws over the page', default: allow},
  PWA: {why: 'browser-level: browserLevel.ts', default: BROWSER_LEVEL},
  Page: {
    why: 'the page itself; Chrome scopes frame ids to the session',
    default: allow,
    commands: {
      disable: keepsEnabled('Page'),
      close: refuse('the server tracks its pages. Use close_page.'),
      crash: refuse('it would crash the page the server drives.'),
      setLifecycleEventsEnabled: refuse('the server waits for navigations through lifecycle events.'),
      setDownloadBehavior: refuse(
        'downloads go to --downloadsDir, inside the allowed roots. Restart the server with another --downloadsDir.',
      ),
      waitForDebugger: PAUSE,
      navigate: all(NAVIGATION, navigationUrl()),
      navigateToHistoryEntry: NAVIGATION,
      resetNavigationHistory: NAVIGATION,
      reload: all(NAVIGATION, (params, context) =>
        params['scriptToEvaluateOnLoad'] ? needsJavaScript()(params, context) : undefined,
      ),
      addScriptToEvaluateOnNewDocument: needsJavaScript(),
      addScriptToEvaluateOnLoad: needsJavaScript(),
      setDocumentContent: needsJavaScript('the markup it sets can carry script'),
      addCompilationCache: refuse('it hands V8 compiled code that nothing checks.'),
      createIsolatedWorld: unless(
        'grantUniveralAccess',
        'universal access would let scripts in that world read any origin and local files, outside the allowed roots.',
      ),
      setBypassCSP: (params, context) =>
        params['enabled'] === true
          ? needsJavaScript("it lifts the script-src 'none' the server puts on mocked responses")(params, context)
          : undefined,
      setDeviceMetricsOverride: EMULATION,
      clearDeviceMetricsOverride: EMULATION,
      setDeviceOrientationOverride: EMULATION,
      clearDeviceOrientationOverride: EMULATION,
      setGeolocationOverride: EMULATION,
      clearGeolocationOverride: EMULATION,
      setTouchEmulationEnabled: EMULATION,
    },
  },
  Performance: {why: "the page's metrics", default: allow},
  PerformanceTimeline: {why: "the page's timeline events", default: allow},
  Preload: {why: "the page's preloading", default: allow},
  Profiler: {why: "CPU profiles and coverage of the page's scripts", default: allow},
  Runtime: {
    why: "the page's JavaScript: commands that run code the caller gives follow --no-javascript-evaluation; a command the table does not name is taken for one",
    default: needsJavaScript(),
    commands: {
      disable: keepsEnabled('Runtime'),
      enable: allow,
      awaitPromise: allow,
      discardConsoleEntries: allow,
      getIsolateId: allow,
      getHeapUsage: allow,
      getProperties: allow,
      globalLexicalScopeNames: allow,
      queryObjects: allow,
      releaseObject: allow,
      releaseObjectGroup: allow,
      runIfWaitingForDebugger: allow,
      setAsyncCallStackDepth: allow,
      setCustomObjectFormatterEnabled: allow,
      setMaxCallStackSizeToCapture: allow,
      terminateExecution: allow,
      addBinding: allow,
      removeBinding: allow,
      getExceptionDetails: allow,
    },
  },
  Schema: {why: 'lists the domains', default: allow},
  Security: {
    why: "certificate errors: ignoring them is --acceptInsecureCerts, the operator's call",
    default: (_params, {switches}) =>
      switches.acceptInsecureCerts
        ? undefined
        : "ignoring certificate errors is the operator's call: restart the server with --acceptInsecureCerts.",
    commands: {enable: allow, disable: allow},
  },
  ServiceWorker: {why: "the page's storage partition (the session's context)", default: allow},
  SmartCardEmulation: {
    why: 'emulated smart cards were never reviewed for sessions',
    default: refuse('emulated smart cards are not offered.'),
  },
  Storage: {
    why: "the page's storage partition; its cookie commands are browser-level (browserLevel.ts)",
    default: allow,
  },
  SystemInfo: {why: 'browser-level: browserLevel.ts', default: BROWSER_LEVEL},
  Target: {why: 'browser-level: browserLevel.ts', default: BROWSER_LEVEL},
  Tethering: {why: 'browser-level: browserLevel.ts', default: BROWSER_LEVEL},
  Tracing: {why: 'browser-level: browserLevel.ts', default: BROWSER_LEVEL},
  WebAudio: {why: "the page's audio graph", default: allow},
  WebAuthn: {why: 'virtual authenticators of the page', default: allow},
  WebMCP: {why: 'the WebMCP tools the page registers', category: 'webmcp', default: allow},
};
