import type {CdpSession} from '../../cdp/CdpConnection.js';
import {abortable, deferred, errorMessage, sleep} from '../../util/async.js';
import {debug} from '../../util/logger.js';
import {PageQuoteError} from '../../util/pageQuote.js';
import {type CallControl, NO_CALL_CONTROL} from '../../util/progress.js';
import type {Page} from '../core/Page.js';
import {cpuMultiplier} from '../core/settle.js';
import {exceptionMessage} from './exceptions.js';

/** Default bound of wait_for, scaled by CPU throttling as the reference does. */
export const WAIT_FOR_TIMEOUT_MS = 5_000;
/** How often a waiting wait_for says it is still waiting (progress notifications). */
const STILL_WAITING_EVERY_MS = 500;
/** How often the frames are looked over for documents not watched yet (a frame that loaded, navigated or appeared). */
const SWEEP_MS = 100;
/** Extra time a watch's CDP call may take beyond the watch's own bound. */
const CALL_SLACK_MS = 5_000;

/**
 * Runs in one frame's document (the server runs it in every frame, in-process
 * and out-of-process, cross-origin or not): true when any text is rendered in
 * the document or an open shadow root in it, or is the accessible label of an
 * element (aria-label, alt, title, placeholder, value); else a handle whose
 * `found` resolves true as soon as one is, false at the deadline or after
 * `stop()`. Re-checks on DOM mutations and on a slow timer.
 */
function watchForText(texts: string[], timeoutMs: number): true | {found: Promise<boolean>; stop(): void} {
  const LABEL_ATTRS = ['aria-label', 'alt', 'title', 'placeholder', 'value'];
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
    }
    return false;
  };
  if (inRoot(document)) {
    return true;
  }
  let stop = () => {};
  const found = new Promise<boolean>(resolve => {
    let pending = false;
    const finish = (value: boolean) => {
      observer.disconnect();
      clearInterval(interval);
      clearTimeout(deadline);
      resolve(value);
    };
    stop = () => finish(false);
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
  return {found, stop: () => stop()};
}

/** A frame document to watch: its session and main-world context (undefined: the session's main frame). */
interface FrameContext {
  session: CdpSession;
  contextId: number | undefined;
}

let watchGroups = 0;

/**
 * One wait_for: a text watch in every frame the page has (the frames the
 * snapshot shows), started again in frames whose document is new, until one
 * finds a text. Stopped and released as a whole.
 */
class FramesTextWatch {
  readonly #group = `cdp-mcp-wait-for-${++watchGroups}`;
  readonly #watched = new Set<string>();
  readonly #handles: Array<{session: CdpSession; objectId: string}> = [];
  readonly #found = deferred<true>();

  constructor(
    readonly page: Page,
    readonly texts: string[],
    readonly deadline: number,
  ) {}

  get found(): Promise<true> {
    return this.#found.promise;
  }

  /** Starts a watch in every frame document not watched yet. */
  sweep(): void {
    const frames: FrameContext[] = this.page.frames.contexts();
    if (!frames.some(frame => frame.session === this.page.session)) {
      frames.unshift({session: this.page.session, contextId: undefined});
    }
    for (const frame of frames) {
      const key = `${frame.session.id}/${frame.contextId ?? 'main'}`;
      if (this.#watched.has(key)) {
        continue;
      }
      this.#watched.add(key);
      this.#watch(frame).then(
        found => found && this.#found.resolve(true),
        // A document that went away (navigated, detached) is no longer searched; its next one is.
        (error: unknown) => debug('wait_for: a frame watch ended', errorMessage(error)),
      );
    }
  }

  async #watch({session, contextId}: FrameContext): Promise<boolean> {
    const left = Math.max(0, this.deadline - Date.now());
    const {result, exceptionDetails} = await session.send('Runtime.evaluate', {
      expression: `(${watchForText.toString()})(${JSON.stringify(this.texts)}, ${left})`,
      objectGroup: this.#group,
      ...(contextId !== undefined ? {contextId} : {}),
    });
    if (exceptionDetails) {
      throw new PageQuoteError(`Could not search the frame: ${exceptionMessage(exceptionDetails)}`);
    }
    if (!result.objectId) {
      // Found at once: the page answered `true`, no watch to stop later.
      return result.value === true;
    }
    this.#handles.push({session, objectId: result.objectId});
    const answer = await session.send(
      'Runtime.callFunctionOn',
      {
        objectId: result.objectId,
        functionDeclaration: 'function() { return this.found; }',
        awaitPromise: true,
        returnByValue: true,
      },
      {timeout: left + CALL_SLACK_MS},
    );
    return answer.result.value === true;
  }

  /** Stops every watch still running and releases their handles. */
  async stop(): Promise<void> {
    await Promise.all(
      this.#handles.map(({session, objectId}) =>
        session.trySend('Runtime.callFunctionOn', {objectId, functionDeclaration: 'function() { this.stop(); }'}),
      ),
    );
    const sessions = new Set(this.#handles.map(handle => handle.session));
    await Promise.all(
      [...sessions].map(session => session.trySend('Runtime.releaseObjectGroup', {objectGroup: this.#group})),
    );
  }
}

/**
 * Waits until any of `texts` appears in any frame of the page (the top
 * document, same- and cross-origin iframes, out-of-process ones included,
 * and frames that load or navigate during the wait); throws on timeout.
 */
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
  const ticker = setInterval(() => {
    progress(`Still waiting for ${what}: ${((Date.now() - started) / 1000).toFixed(1)} s of ${ms / 1000} s`);
  }, STILL_WAITING_EVERY_MS);
  ticker.unref();
  const watch = new FramesTextWatch(page, texts, started + ms);
  try {
    for (;;) {
      watch.sweep();
      const left = started + ms - Date.now();
      if (left <= 0) {
        throw new Error(`Timed out after waiting ${ms} ms for ${what} to appear on the page.`);
      }
      if (await abortable(Promise.race([watch.found, sleep(Math.min(SWEEP_MS, left)).then(() => false)]), signal)) {
        return;
      }
    }
  } finally {
    clearInterval(ticker);
    await watch.stop();
  }
}
