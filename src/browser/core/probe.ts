/**
 * Installed in every document (Page.addScriptToEvaluateOnNewDocument) and on
 * demand. It lets us wait for exactly what an action caused, and nothing else:
 *
 * - DOM mutations are counted, so "nothing changed" is known at once;
 * - short timers (≤ SHORT_TIMER_MS), animation frames and fetch/XHR requests
 *   started after `mark()` are tracked until they have run/finished once, so
 *   effects the action scheduled but that have not touched the DOM yet are
 *   still awaited.
 *
 * Activated links with a `download` attribute are counted too (`downloads()`,
 * since the last mark): their download begins only once the server answers,
 * so the response of the action waits for it.
 *
 * `settle(since, quietMs, capMs)` resolves false right away when nothing was
 * scheduled and nothing changed; otherwise once the tracked work is done and
 * the DOM has been quiet for `quietMs`, or at `capMs`.
 * Kept under a registered symbol so it never collides with page globals.
 */
/** sourceURL of the probe, so stack traces shown to agents can leave its frames out. */
export const PROBE_URL = 'cdp-mcp-probe.js';
/** How heap snapshots name the reference from a global to the probe (objects held only by it are ours). */
export const PROBE_HEAP_EDGE = '<symbol cdp-mcp.probe>';

/** The registered symbol the probe lives under. */
const PROBE_KEY = 'cdp-mcp.probe';

/** An expression calling a probe method in the page, undefined when the document has no probe. */
export function probeCall(method: 'mark' | 'settle' | 'downloads', ...args: number[]): string {
  return `globalThis[Symbol.for('${PROBE_KEY}')]?.${method}(${args.join(', ')})`;
}

export const PROBE_SOURCE = `(() => {
  const key = Symbol.for('${PROBE_KEY}');
  if (globalThis[key]) return;
  const SHORT_TIMER_MS = 250;
  const nativeSetTimeout = globalThis.setTimeout;
  let count = 0;
  let last = 0;
  let epoch = 0;
  const pending = new Set();
  const track = () => { if (!epoch) return undefined; const token = {epoch}; pending.add(token); return token; };
  const done = token => { if (token) pending.delete(token); };
  const observer = new MutationObserver(records => { count += records.length; last = performance.now(); });
  const start = () => observer.observe(document, {childList: true, subtree: true, attributes: true, characterData: true});
  if (document.documentElement) start(); else document.addEventListener('readystatechange', start, {once: true});
  // Timer/frame ids of tracked callbacks, so that clearing one releases it
  // (debounce code clears and re-arms on every keystroke).
  const wrapTimer = (name, clearName) => {
    const tokensById = new Map();
    const release = id => { const token = tokensById.get(id); if (token) { tokensById.delete(id); done(token); } };
    const original = globalThis[name];
    const originalClear = globalThis[clearName];
    if (typeof original !== 'function' || typeof originalClear !== 'function') return;
    globalThis[name] = function (callback, delay, ...args) {
      const token = typeof callback === 'function' && !(Number(delay) > SHORT_TIMER_MS) ? track() : undefined;
      if (!token) return original.call(this, callback, delay, ...args);
      let id;
      id = original.call(this, function (...a) {
        try { return callback.apply(this, a); } finally { release(id); }
      }, delay, ...args);
      tokensById.set(id, token);
      return id;
    };
    globalThis[clearName] = function (id) {
      release(id);
      return originalClear.call(this, id);
    };
  };
  wrapTimer('setTimeout', 'clearTimeout');
  wrapTimer('setInterval', 'clearInterval');
  wrapTimer('requestAnimationFrame', 'cancelAnimationFrame');
  const nativeFetch = globalThis.fetch;
  if (typeof nativeFetch === 'function') {
    globalThis.fetch = function (...args) {
      const token = track();
      const p = nativeFetch.apply(this, args);
      if (token) p.then(() => done(token), () => done(token));
      return p;
    };
  }
  const XHR = globalThis.XMLHttpRequest;
  if (XHR) {
    const send = XHR.prototype.send;
    XHR.prototype.send = function (...args) {
      const token = track();
      if (token) this.addEventListener('loadend', () => done(token), {once: true});
      return send.apply(this, args);
    };
  }
  let downloads = 0;
  const isDownloadLink = a => Boolean(a && a.hasAttribute('download') && a.href);
  // Clicks on links in the document, once every handler had its chance to prevent them.
  globalThis.addEventListener('click', e => {
    const a = e.composedPath().find(n => n instanceof HTMLAnchorElement);
    if (!e.defaultPrevented && isDownloadLink(a)) downloads++;
  });
  // Scripts often click a link they never attach (blob downloads): the document never sees that click.
  const anchorClick = globalThis.HTMLAnchorElement && HTMLAnchorElement.prototype.click;
  if (anchorClick) {
    HTMLAnchorElement.prototype.click = function (...args) {
      let prevented = false;
      const watch = e => { prevented = e.defaultPrevented; };
      if (!this.isConnected) this.addEventListener('click', watch);
      try { return anchorClick.apply(this, args); } finally {
        if (!this.isConnected) { this.removeEventListener('click', watch); if (!prevented && isDownloadLink(this)) downloads++; }
      }
    };
  }
  Object.defineProperty(globalThis, key, {value: {
    mark: () => { epoch++; pending.clear(); downloads = 0; return count; },
    downloads: () => downloads,
    count: () => count,
    settle: (since, quietMs, capMs) => new Promise(resolve => {
      const began = performance.now();
      const check = () => {
        const now = performance.now();
        const busy = pending.size > 0;
        if (!busy && count === since) return resolve(false);
        if (now - began >= capMs) return resolve(true);
        if (!busy && now - last >= quietMs) return resolve(true);
        nativeSetTimeout.call(globalThis, check, busy ? 10 : Math.max(5, quietMs - (now - last)));
      };
      check();
    }),
  }});
})()
//# sourceURL=${PROBE_URL}
`;
