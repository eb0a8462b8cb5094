/**
 * Installed in every document (Page.addScriptToEvaluateOnNewDocument) and on
 * demand: counts DOM mutations so that, after an action, we can tell at once
 * whether anything changed and, if so, wait only until the DOM goes quiet.
 * Kept under a registered symbol so it never collides with page globals.
 */
export const PROBE_SOURCE = `(() => {
  const key = Symbol.for('cdp-mcp.probe');
  if (globalThis[key]) return;
  let count = 0;
  let last = 0;
  const observer = new MutationObserver(records => { count += records.length; last = performance.now(); });
  const start = () => observer.observe(document, {childList: true, subtree: true, attributes: true, characterData: true});
  if (document.documentElement) start(); else document.addEventListener('readystatechange', start, {once: true});
  Object.defineProperty(globalThis, key, {value: {
    count: () => count,
    settle: (since, quietMs, capMs) => new Promise(resolve => {
      const began = performance.now();
      const check = () => {
        const now = performance.now();
        if (count === since) return resolve(false);
        if (now - last >= quietMs) return resolve(true);
        if (now - began >= capMs) return resolve(true);
        setTimeout(check, Math.max(5, quietMs - (now - last)));
      };
      setTimeout(check, 0);
    }),
  }});
})()`;
