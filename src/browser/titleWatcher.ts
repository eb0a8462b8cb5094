/**
 * Keeps page titles current without a round trip per page list: a script in
 * an isolated world of the top frame (invisible to the page) reports every
 * change of `document.title` through a CDP binding exposed only to that world.
 * Chrome's own target info does not carry title changes in headless mode.
 */
export const TITLE_WORLD = 'cdp-mcp-title';
export const TITLE_BINDING = '__cdpMcpTitle';

export const TITLE_WATCHER_SOURCE = `(() => {
  if (window !== window.top) return;
  const report = globalThis[${JSON.stringify(TITLE_BINDING)}];
  if (typeof report !== 'function') return;
  let last;
  const check = () => { const title = document.title; if (title !== last) { last = title; report(title); } };
  new MutationObserver(check).observe(document, {subtree: true, childList: true, characterData: true});
  check();
})()`;
