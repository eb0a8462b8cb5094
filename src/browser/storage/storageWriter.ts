/**
 * Writes localStorage of origins that no page needs to have open: a hidden
 * helper tab opens each origin with every request answered locally (an empty
 * document: nothing reaches the network, no cookie is sent), sets the items
 * there, and can put the previous items back.
 */
import type {CdpSession} from '../../cdp/CdpConnection.js';
import {withTimeout} from '../../util/async.js';
import {PageQuoteError} from '../../util/pageQuote.js';
import type {StateOrigin, StorageItem} from './storageFormat.js';

/** Bound of opening one origin in the helper tab. */
const ORIGIN_OPEN_TIMEOUT_MS = 10_000;
const EMPTY_DOCUMENT = Buffer.from('<!doctype html><title></title>').toString('base64');

/** Runs in the origin's document: replaces the given keys (or, with `replace`, everything) and returns what was there. */
function writeItems(
  entries: Array<[string, string]>,
  replace: boolean,
): {previous?: Array<[string, string]>; error?: string} {
  const previous: Array<[string, string]> = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key !== null) {
      previous.push([key, localStorage.getItem(key) ?? '']);
    }
  }
  try {
    if (replace) {
      localStorage.clear();
    }
    for (const [key, value] of entries) {
      localStorage.setItem(key, value);
    }
    return {previous};
  } catch (error) {
    localStorage.clear();
    for (const [key, value] of previous) {
      localStorage.setItem(key, value);
    }
    return {error: String(error)};
  }
}

async function openOrigin(session: CdpSession, origin: string): Promise<void> {
  let off: (() => void) | undefined;
  const committed = new Promise<void>(resolve => {
    off = session.on('Page.frameNavigated', ({frame}) => {
      if (frame.parentId === undefined && frame.securityOrigin === origin) {
        resolve();
      }
    });
  });
  try {
    const {errorText} = await session.send('Page.navigate', {url: `${origin}/`});
    if (errorText) {
      throw new Error(`could not open ${origin} in the helper tab: ${errorText}`);
    }
    await withTimeout(
      committed,
      ORIGIN_OPEN_TIMEOUT_MS,
      `${origin} did not open in the helper tab within ${ORIGIN_OPEN_TIMEOUT_MS} ms`,
    );
  } finally {
    off?.();
  }
}

async function write(session: CdpSession, origin: string, items: Array<[string, string]>, replace: boolean) {
  await openOrigin(session, origin);
  const {result, exceptionDetails} = await session.send('Runtime.evaluate', {
    expression: `(${writeItems.toString()})(${JSON.stringify(items)}, ${replace})`,
    returnByValue: true,
  });
  const value = result.value as ReturnType<typeof writeItems> | undefined;
  if (exceptionDetails || !value || value.error !== undefined) {
    throw new PageQuoteError(
      `could not write localStorage of ${origin}: ${value?.error ?? exceptionDetails?.text ?? 'no answer'}`,
    );
  }
  return value.previous ?? [];
}

const pairs = (items: StorageItem[]): Array<[string, string]> => items.map(i => [i.name, i.value]);

/**
 * Writes every origin's localStorage, then runs `andThen` (the cookies) while
 * the helper tab is still open; if any step fails, the origins written so far
 * get their previous items back before the error is rethrown.
 */
export async function writeLocalStorage(
  session: CdpSession,
  origins: StateOrigin[],
  andThen: () => Promise<void>,
): Promise<void> {
  const off = session.on('Fetch.requestPaused', ({requestId}) => {
    void session.trySend('Fetch.fulfillRequest', {
      requestId,
      responseCode: 200,
      responseHeaders: [{name: 'content-type', value: 'text/html; charset=utf-8'}],
      body: EMPTY_DOCUMENT,
    });
  });
  const written: Array<{origin: string; previous: Array<[string, string]>}> = [];
  try {
    await Promise.all([session.send('Page.enable', {}), session.send('Fetch.enable', {patterns: [{urlPattern: '*'}]})]);
    await session.send('Runtime.runIfWaitingForDebugger');
    for (const {origin, localStorage} of origins) {
      written.push({origin, previous: await write(session, origin, pairs(localStorage), false)});
    }
    await andThen();
  } catch (error) {
    for (const {origin, previous} of written.reverse()) {
      await write(session, origin, previous, true).catch(() => undefined);
    }
    throw error;
  } finally {
    off();
  }
}
