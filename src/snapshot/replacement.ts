/**
 * When a uid's element left the page (issue 22: a re-render replaced it by
 * one that looks the same): the error says which element of a fresh
 * snapshot has its role and name, so the agent never acts on another
 * element by mistake and need not read a whole snapshot to go on.
 */
import {ElementGoneError, type Page} from '../browser/core/Page.js';
import {PageQuoteError} from '../util/pageQuote.js';
import {capturePageSnapshot, snapshotState, UnknownUidError} from './PageSnapshot.js';

/** At most this many look-alikes are named. */
const NAMED = 5;

/** The uid among `uids` whose element the error says is gone (stale, or gone from the latest snapshot). */
function goneUid(error: unknown, uids: readonly string[], page: Page): string | undefined {
  if (error instanceof ElementGoneError && error.reason === 'stale' && uids.includes(error.uid)) {
    return error.uid;
  }
  if (error instanceof UnknownUidError && uids.includes(error.uid) && snapshotState(page).lookOf(error.uid)) {
    return error.uid;
  }
  return undefined;
}

/**
 * Takes a snapshot (it becomes the page's current one; uids that exist
 * stay) and names the element that looks as the gone one did: the same role
 * and accessible name. Nothing for a nameless element or when none does.
 */
async function replacementHint(page: Page, uid: string, signal: AbortSignal | undefined): Promise<string> {
  const look = snapshotState(page).lookOf(uid);
  if (!look?.name) {
    return '';
  }
  await capturePageSnapshot(page, snapshotState(page).verbose, undefined, signal);
  const same = snapshotState(page).lines.filter(l => l.role === look.role && l.name === look.name && l.uid !== uid);
  const what = `${look.role} "${look.name}"`;
  if (same.length === 1) {
    return ` The page re-rendered it: the same ${what} is now uid=${same[0]?.uid}. Act on that uid if it is the element you meant.`;
  }
  if (same.length > 1) {
    const uids = same.slice(0, NAMED).map(l => `uid=${l.uid}`);
    return ` ${same.length} elements look the same (${what}): ${uids.join(', ')}${same.length > NAMED ? ', …' : ''}. Pick one from a new snapshot.`;
  }
  return '';
}

/**
 * Runs an action on uids; when it fails because one of them is gone, the
 * error also names the element that looks the same now, if one does
 * (`signal`: the call's, which stops the snapshot that looks).
 */
export async function namingReplacement<T>(
  page: Page,
  uids: readonly string[],
  action: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  try {
    return await action();
  } catch (error) {
    const uid = goneUid(error, uids, page);
    if (uid === undefined) {
      throw error;
    }
    const hint = await replacementHint(page, uid, signal).catch(() => '');
    if (!hint) {
      throw error;
    }
    throw new PageQuoteError(`${(error as Error).message}${hint}`, {cause: error});
  }
}
