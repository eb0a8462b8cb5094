import {type CallControl, NO_CALL_CONTROL} from '../../util/progress.js';
import type {Page} from '../core/Page.js';
import {cpuMultiplier} from '../core/settle.js';
import {exceptionMessage} from './exceptions.js';

/** Default bound of wait_for, scaled by CPU throttling as the reference does. */
export const WAIT_FOR_TIMEOUT_MS = 5_000;
/** How often a waiting wait_for says it is still waiting (progress notifications). */
const STILL_WAITING_EVERY_MS = 500;

/**
 * Runs in the page: resolves true as soon as any text is rendered in the
 * document, an open shadow root or a same-origin iframe, or is the accessible
 * label of an element (aria-label, alt, title, placeholder, value); false at
 * the deadline. Re-checks on DOM mutations and on a slow timer (for frames).
 */
function pageWaitForText(texts: string[], timeoutMs: number): Promise<boolean> {
  const LABEL_ATTRS = ['aria-label', 'alt', 'title', 'placeholder', 'value'];
  const seenRoots = new Set<Node>();
  const inRoot = (root: Document | ShadowRoot): boolean => {
    const container = root instanceof Document ? (root.body ?? root.documentElement) : root;
    if (!container) {
      return false;
    }
    const rendered = container instanceof HTMLElement ? container.innerText : '';
    const text = rendered || container.textContent || '';
    if (texts.some(t => text.includes(t))) {
      return true;
    }
    for (const el of Array.from(root.querySelectorAll('*'))) {
      for (const attr of LABEL_ATTRS) {
        const value = el.getAttribute(attr);
        if (value && texts.includes(value.trim())) {
          return true;
        }
      }
      if (el.shadowRoot && inRoot(el.shadowRoot)) {
        return true;
      }
      if (el instanceof HTMLIFrameElement) {
        try {
          const doc = el.contentDocument;
          if (doc && inRoot(doc)) {
            return true;
          }
          if (doc && !seenRoots.has(doc)) {
            seenRoots.add(doc);
          }
        } catch {
          // Cross-origin frame: not reachable from here.
        }
      }
    }
    return false;
  };
  return new Promise(resolve => {
    if (inRoot(document)) {
      resolve(true);
      return;
    }
    let pending = false;
    const finish = (found: boolean) => {
      observer.disconnect();
      clearInterval(interval);
      clearTimeout(deadline);
      resolve(found);
    };
    const check = () => {
      pending = false;
      if (inRoot(document)) {
        finish(true);
      }
    };
    const observer = new MutationObserver(() => {
      if (!pending) {
        pending = true;
        setTimeout(check, 16);
      }
    });
    observer.observe(document, {childList: true, subtree: true, characterData: true, attributes: true});
    const interval = setInterval(check, 200);
    const deadline = setTimeout(() => finish(false), timeoutMs);
  });
}

/** Waits until any of `texts` appears on the page; throws on timeout. */
export async function waitForText(
  page: Page,
  texts: string[],
  timeout?: number,
  {signal, progress}: CallControl = NO_CALL_CONTROL,
): Promise<void> {
  const ms = timeout ?? WAIT_FOR_TIMEOUT_MS * cpuMultiplier(page);
  const started = Date.now();
  const what = `any of ${JSON.stringify(texts)}`;
  progress(`Waiting up to ${ms} ms for ${what} to appear`);
  // The search runs in the page (one awaited evaluation); progress comes from here.
  const ticker = setInterval(() => {
    progress(`Still waiting for ${what}: ${((Date.now() - started) / 1000).toFixed(1)} s of ${ms / 1000} s`);
  }, STILL_WAITING_EVERY_MS);
  ticker.unref();
  try {
    const {result, exceptionDetails} = await page.session.send(
      'Runtime.evaluate',
      {
        expression: `(${pageWaitForText.toString()})(${JSON.stringify(texts)}, ${ms})`,
        awaitPromise: true,
        returnByValue: true,
      },
      {timeout: ms + 5_000, signal},
    );
    if (exceptionDetails) {
      throw new Error(`Could not search the page: ${exceptionMessage(exceptionDetails)}`);
    }
    if (result.value !== true) {
      throw new Error(`Timed out after waiting ${ms} ms for ${what} to appear on the page.`);
    }
  } finally {
    clearInterval(ticker);
  }
}
