/**
 * The arguments we start Chrome with by default, each with the reason it is
 * there. `--ignoreDefaultChromeArg` leaves one out (by its full text or its
 * name before `=`). They start from chrome-launcher's defaults (1.2.1), which
 * keep an automated Chrome quiet, fast and free of dialogs; the last ones are ours.
 */

/** Features turned off with one `--disable-features`. */
export const DISABLED_FEATURES = [
  // The translate bar would offer itself on foreign-language pages and call Google.
  'Translate',
  // The Optimization Guide downloads hints from Google in the background.
  'OptimizationHints',
  // Cast discovery probes the local network in the background.
  'MediaRouter',
  // Part of cast discovery; on macOS it asks whether to accept incoming connections.
  'DialMediaRouteProvider',
  // Windows: occlusion tracking would throttle windows it believes are hidden.
  'CalculateNativeWinOcclusion',
  // The new-tab page's feed fetches content suggestions.
  'InterestFeedContentSuggestions',
  // Certificate Transparency log lists would download updates.
  'CertificateTransparencyComponentUpdater',
  // Autofill would send form signatures of the pages we drive to Google.
  'AutofillServerCommunication',
  // The "Enhanced ad privacy" dialog could cover the page.
  'PrivacySandboxSettings4',
];
// Not RenderDocument, which chrome-launcher turns off (for Lighthouse): with it
// off, a frame keeps its renderer-side objects across same-site navigations,
// and Chrome 156's renderer crashes on Accessibility.enable in a document
// whose frame had its accessibility tree read before the navigation (a
// snapshot, then navigate_page, then a snapshot that looks below a node).
// Chrome's default and the reference's launch leave it on.

/** Everything we pass unless told to leave it out. */
export const DEFAULT_CHROME_FLAGS = [
  // See DISABLED_FEATURES.
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
  // Extensions run their own code in every page and change what the agent sees.
  '--disable-extensions',
  // Component extensions with background pages escape --disable-extensions.
  '--disable-component-extensions-with-background-pages',
  // Background services (extension updates, safe-browsing lists, UMA) make network noise and slow startup.
  '--disable-background-networking',
  // Components listed in chrome://components/ would download updates.
  '--disable-component-update',
  // Client-side phishing detection downloads and runs a model on every page.
  '--disable-client-side-phishing-detection',
  // There is no Google account to sync with.
  '--disable-sync',
  // Metrics stay local: recorded, never uploaded.
  '--metrics-recording-only',
  // A new profile would install the default apps on first run.
  '--disable-default-apps',
  // Pages the agent opens must not play sound on the user's speakers.
  '--mute-audio',
  // No prompt to make Chrome the default browser.
  '--no-default-browser-check',
  // No first-run wizard or welcome tab in a new profile.
  '--no-first-run',
  // Windows covered by others keep rendering, so screenshots and animations work.
  '--disable-backgrounding-occluded-windows',
  // A page the agent drives is often a background tab; its renderer keeps full priority.
  '--disable-renderer-backgrounding',
  // Timers of background pages run at full speed, so waits end when the page is ready.
  '--disable-background-timer-throttling',
  // Bursts of IPC caused by fast automation (navigation loops) must not be throttled.
  '--disable-ipc-flooding-protection',
  // A plain password store: no GNOME Keyring or KWallet prompt, no hang waiting for one.
  '--password-store=basic',
  // macOS: a mock keychain, so no keychain permission dialog blocks startup.
  '--use-mock-keychain',
  // Background tracing would hold the tracer ("Tracing already started" for performance traces).
  '--force-fieldtrials=*BackgroundTracing/default/',
  // A busy page must not raise the "Page unresponsive" dialog.
  '--disable-hang-monitor',
  // Reloading a page that came from a POST would ask for confirmation.
  '--disable-prompt-on-repost',
  // Domain Reliability uploads reports about failures to reach Google sites.
  '--disable-domain-reliability',
  // In-product help bubbles would cover page content.
  '--propagate-iph-for-testing',
  // Ours: no "Chrome didn't shut down correctly" bubble after we kill Chrome.
  '--hide-crash-restore-bubble',
  // As chrome-devtools-mcp's Chrome (Puppeteer's defaults), so pages get the same window: no
  // bad-flags bar (--no-sandbox) over the first tab, the "controlled by automated test software"
  // bar over every tab of a visible window, no password-saving prompt, no auto-reload of error pages.
  '--enable-automation',
  // Headless Chrome honours it: no bar takes height from a headless page.
  '--disable-infobars',
];

/**
 * Added when headless, as chrome-devtools-mcp does: a 4K screen, so the
 * default window (and a page's layout viewport) is the reference's 1905x2053
 * CSS px instead of a window for an 800x600 screen, and no scrollbars, which
 * would narrow the layout by their width.
 */
export const HEADLESS_CHROME_FLAGS = ['--screen-info={3840x2160}', '--hide-scrollbars'];

/** What decides the argument list, besides the defaults. */
export interface ChromeFlagOptions {
  headless: boolean;
  proxyServer?: string;
  acceptInsecureCerts?: boolean;
  /** Extra arguments (`--chromeArg`), passed last. */
  chromeArgs: string[];
  /** Defaults to leave out (`--ignoreDefaultChromeArg`). */
  ignoreDefaultChromeArgs: string[];
  /** Allow extensions, and their installation over CDP (`Extensions.loadUnpacked`). */
  extensions?: boolean;
  /** Chrome features to turn on (one `--enable-features`), e.g. `WebMCP`. */
  enableFeatures?: string[];
  /** `--experimentalDevtools`: every tab opens with its DevTools window. */
  devtools?: boolean;
}

/** Defaults that would keep the extensions of `--categoryExtensions` from running. */
const EXTENSION_BLOCKERS = new Set(['--disable-extensions', '--disable-component-extensions-with-background-pages']);

/** The argument list we start Chrome with, before the profile and debugging arguments the launch adds. */
export function buildChromeFlags(options: ChromeFlagOptions, isRoot: boolean): string[] {
  const ignored = new Set(options.ignoreDefaultChromeArgs);
  const kept = (flag: string) => !ignored.has(flag) && !ignored.has(flag.split('=')[0] ?? flag);
  const flags = DEFAULT_CHROME_FLAGS.filter(
    flag => kept(flag) && !(options.extensions && EXTENSION_BLOCKERS.has(flag)),
  );
  if (options.extensions) {
    // Without it Chrome refuses Extensions.loadUnpacked.
    flags.push('--enable-unsafe-extension-debugging');
  }
  if (options.enableFeatures?.length) {
    flags.push(`--enable-features=${options.enableFeatures.join(',')}`);
  }
  if (options.devtools) {
    flags.push('--auto-open-devtools-for-tabs');
  }
  if (options.headless) {
    flags.push('--headless', ...HEADLESS_CHROME_FLAGS.filter(kept));
  }
  // Chrome refuses to start sandboxed as root (containers, CI).
  if (isRoot && !options.chromeArgs.includes('--no-sandbox')) {
    flags.push('--no-sandbox');
  }
  if (options.proxyServer) {
    flags.push(`--proxy-server=${options.proxyServer}`);
  }
  if (options.acceptInsecureCerts) {
    flags.push('--ignore-certificate-errors');
  }
  flags.push(...options.chromeArgs);
  return flags;
}
