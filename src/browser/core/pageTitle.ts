/**
 * A page's document title, read from the page for page lists (the target's
 * title lags behind a change), and the read handle_dialog sends with its
 * answer.
 */
import type {CdpSession} from '../../cdp/CdpConnection.js';

/** Bound of reading a page title for page lists (as the reference). */
const TITLE_TIMEOUT_MS = 1_000;

/** document.title of the page's main frame; undefined when the page does not answer in time. */
export async function readTitle(session: CdpSession): Promise<string | undefined> {
  const result = await session.trySend(
    'Runtime.evaluate',
    {expression: 'document.title', returnByValue: true},
    TITLE_TIMEOUT_MS,
  );
  return result && !result.exceptionDetails && typeof result.result.value === 'string'
    ? result.result.value
    : undefined;
}

/**
 * The title read sent together with a dialog's answer. Sent after the answer's
 * reply, as before, the read cost a round trip of its own; sent with the
 * answer, it waits in the renderer behind the dialog and is answered as soon
 * as the renderer is free again (a task of its own: the script that opened
 * the dialog finishes first, as before). It serves the page list of the same
 * call only: taken once, and never after the bound of a read (a list that did
 * not take it, because another page's dialog paused the lists, leaves it to
 * expire).
 */
export class TitleAhead {
  #read: Promise<string | undefined> | undefined;
  #at = 0;

  set(read: Promise<string | undefined>): void {
    this.#read = read;
    this.#at = Date.now();
  }

  take(): Promise<string | undefined> | undefined {
    const read = this.#read;
    this.#read = undefined;
    return read && Date.now() - this.#at < TITLE_TIMEOUT_MS ? read : undefined;
  }
}
