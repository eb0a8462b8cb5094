/**
 * Installed in every document (Page.addScriptToEvaluateOnNewDocument) and on
 * demand. It lets us wait for exactly what an action caused, and nothing else:
 *
 * - DOM mutations are counted, so "nothing changed" is known at once;
 * - work the action scheduled is tracked until it is done: short timers
 *   (≤ SHORT_TIMER_MS), animation frames, fetch/XHR requests and reads of
 *   fetched bodies, so effects that have not touched the DOM yet are awaited.
 *
 * What counts as the action's work, by who arms it (the callback running
 * then, followed into the promise reactions it starts):
 *
 * - armed by the action itself (its script, the page's input handlers, a
 *   promise reaction or event we did not see start): tracked, up to the cap;
 * - armed by a callback of tracked work: timers and frames are a chain (a
 *   poll, an animation, a timer that re-arms itself), tracked only up to a
 *   short chain cap, so a chain the action started that never ends costs that
 *   cap and no more; requests are tracked as the action's own;
 * - armed by a callback of work we do not track (the page's own timers and
 *   frames from before the action: a self-renewing setTimeout chain, a
 *   polling loop, an animation, a framework still rendering): tracked as a
 *   chain only when that callback changed the DOM, so a loop that changes
 *   nothing never holds the action, and one that does (a page still
 *   hydrating) is followed while it does, up to the chain cap.
 *
 * Activated links with a `download` attribute are counted too (`downloads()`,
 * since the last mark): their download begins only once the server answers,
 * so the response of the action waits for it.
 *
 * `settle(since, chainMs, capMs)` resolves false right away when nothing was
 * scheduled and nothing changed; otherwise once the tracked work is done and
 * one more task turn (a posted message, after anything the page posted) saw
 * no further change, or at `capMs`. There is no fixed quiet window: when the
 * page does rendering-time work (resize or intersection observers, scroll
 * listeners), the first change is followed by one animation frame.
 * Kept under a registered symbol so it never collides with page globals.
 */
import {PROBE_URL} from './probeNames.js';

export {PROBE_HEAP_EDGE, PROBE_URL} from './probeNames.js';

/** The registered symbol the probe lives under. */
const PROBE_KEY = 'cdp-mcp.probe';

/** An expression calling a probe method in the page, undefined when the document has no probe. */
export function probeCall(method: 'mark' | 'settle' | 'downloads', ...args: number[]): string {
  return `globalThis[Symbol.for('${PROBE_KEY}')]?.${method}(${args.join(', ')})`;
}

/** The probe's tracking of the action's work (see above). Runs in the page, as part of PROBE_SOURCE. */
const TRACKING = `
  const SHORT_TIMER_MS = 250;
  /** Microtask rounds after a callback during which what it started still counts as its own. */
  const REACTION_ROUNDS = 3;
  const nativeSetTimeout = globalThis.setTimeout;
  const nativeFrame = globalThis.requestAnimationFrame;
  const nativeMicrotask = globalThis.queueMicrotask;
  let count = 0;
  let epoch = 0;
  const pending = new Set();
  const wakers = new Set();
  // The callback running now (with the promise reactions it starts): its run, or undefined (a task we did
  // not see start: the action's script, an input event). A run is ambient when its work is not tracked.
  let current;
  const observer = new MutationObserver(records => { count += records.length; });
  const flush = () => { count += observer.takeRecords().length; };
  const track = kind => {
    if (!epoch) return undefined;
    const token = !current
      ? {epoch, chain: false}
      : current.ambient
        ? {epoch, chain: true, ambient: current}
        : {epoch, chain: kind === 'timer'};
    pending.add(token);
    return token;
  };
  // Work armed by ambient work counts only when the run that armed it changed the DOM.
  const counts = token => !token.ambient || token.ambient.mutated;
  const done = token => { if (token && pending.delete(token) && counts(token)) for (const wake of wakers) wake(); };
  const within = (token, callback, self, args) => {
    const run = {ambient: !token || token.epoch !== epoch || Boolean(token.ambient), mutated: false};
    flush();
    const before = count;
    const end = () => { flush(); if (count !== before) run.mutated = true; };
    const outer = current;
    current = run;
    try { return callback.apply(self, args); } finally {
      current = outer;
      if (outer === undefined && nativeMicrotask) {
        // The promise reactions the callback started run next, in this task: they are its own.
        current = run;
        let rounds = REACTION_ROUNDS;
        const round = () => {
          if (current === run && --rounds > 0) return nativeMicrotask(round);
          if (current === run) current = undefined;
          end();
        };
        nativeMicrotask(round);
      } else end();
    }
  };
  // Timer/frame ids of tracked callbacks, so that clearing one releases it
  // (debounce code clears and re-arms on every keystroke). An interval is a
  // chain once it has run; it is tracked until cleared.
  const wrapTimer = (name, clearName) => {
    const tokensById = new Map();
    const release = id => { const token = tokensById.get(id); if (token) { tokensById.delete(id); done(token); } };
    const original = globalThis[name];
    const originalClear = globalThis[clearName];
    if (typeof original !== 'function' || typeof originalClear !== 'function') return;
    const repeats = name === 'setInterval';
    globalThis[name] = function (callback, delay, ...args) {
      if (typeof callback !== 'function') return original.call(this, callback, delay, ...args);
      const token = Number(delay) > SHORT_TIMER_MS ? undefined : track('timer');
      let id;
      id = original.call(this, function (...a) {
        try { return within(token, callback, this, a); } finally { if (!repeats) release(id); else if (token) token.chain = true; }
      }, delay, ...args);
      if (token) tokensById.set(id, token);
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
  // Requests, and reads of their bodies (the page renders once the body is in).
  const trackPromise = (self, original, args) => {
    const token = track('request');
    const p = original.apply(self, args);
    if (token) p.then(() => done(token), () => done(token));
    return p;
  };
  const nativeFetch = globalThis.fetch;
  if (typeof nativeFetch === 'function') globalThis.fetch = function (...args) { return trackPromise(this, nativeFetch, args); };
  const body = globalThis.Response && Response.prototype;
  for (const read of body ? ['json', 'text', 'arrayBuffer', 'blob', 'formData'] : []) {
    const original = body[read];
    if (typeof original === 'function') body[read] = function (...args) { return trackPromise(this, original, args); };
  }
  const XHR = globalThis.XMLHttpRequest;
  if (XHR) {
    const send = XHR.prototype.send;
    XHR.prototype.send = function (...args) {
      const token = track('request');
      if (token) this.addEventListener('loadend', () => done(token), {once: true});
      return send.apply(this, args);
    };
  }
  // Rendering-time work: observers and scroll listeners run in the next frame after a change.
  let frameWork = false;
  for (const name of ['ResizeObserver', 'IntersectionObserver']) {
    const proto = globalThis[name] && globalThis[name].prototype;
    const observe = proto && proto.observe;
    if (typeof observe === 'function') proto.observe = function (...args) { frameWork = true; return observe.apply(this, args); };
  }
  const addListener = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, ...rest) {
    if (type === 'scroll') frameWork = true;
    return addListener.call(this, type, ...rest);
  };
`;

/** The probe's settle wait (see above). Runs in the page, as part of PROBE_SOURCE. */
const SETTLE = `(since, chainMs, capMs) => new Promise(resolve => {
    const began = performance.now();
    const channel = globalThis.MessageChannel ? new MessageChannel() : undefined;
    let seen = since;
    let framed = false;
    let turns = 0;
    let finished = false;
    let framing = false;
    const finish = value => { finished = true; wakers.delete(wake); if (channel) channel.port1.close(); resolve(value); };
    const busy = now => { for (const token of pending) if (counts(token) && (!token.chain || now - began < chainMs)) return true; return false; };
    // One task turn: a message posted now runs after the tasks the page posted before it.
    const turn = () => {
      const mine = ++turns;
      if (channel) channel.port2.postMessage(mine);
      else nativeSetTimeout.call(globalThis, () => { if (mine === turns) check(); }, 0);
    };
    if (channel) channel.port1.onmessage = e => { if (e.data === turns) check(); };
    const later = (ms, viaFrame) => {
      const mine = ++turns;
      let fired = false;
      framing = viaFrame;
      const go = () => { if (!fired && mine === turns) { fired = true; framing = false; turn(); } };
      if (viaFrame) nativeFrame.call(globalThis, go);
      nativeSetTimeout.call(globalThis, go, ms);
    };
    const check = () => {
      if (finished) return;
      flush();
      const now = performance.now();
      if (now - began >= capMs) return finish(true);
      if (busy(now)) return later(10, false);
      if (count === since) return finish(false);
      if (count === seen) return finish(true);
      seen = count;
      if (!framed && frameWork && nativeFrame && document.visibilityState === 'visible') {
        framed = true;
        return later(100, true);
      }
      turn();
    };
    const wake = () => { if (!framing) turn(); };
    wakers.add(wake);
    check();
  })`;

/** Where the page's downloads are counted. Runs in the page, as part of PROBE_SOURCE. */
const DOWNLOADS = `
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
`;

export const PROBE_SOURCE = `(() => {
  const key = Symbol.for('${PROBE_KEY}');
  if (globalThis[key]) return;
${TRACKING}${DOWNLOADS}
  Object.defineProperty(globalThis, key, {value: {
    mark: () => { epoch++; pending.clear(); downloads = 0; return count; },
    downloads: () => downloads,
    count: () => count,
    settle: ${SETTLE},
  }});
})()
//# sourceURL=${PROBE_URL}
`;
