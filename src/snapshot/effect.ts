/**
 * An action's effect line (click `effect`, issue 22): what the page shows
 * changed between a snapshot taken just before the action and one taken
 * after it settled, plus what settling saw (navigation, dialogs) and the
 * pages that opened. A fact, not an error: "no observable change" included.
 */
import type {Page} from '../browser/core/Page.js';
import type {SettleResult} from '../browser/core/settle.js';
import type {PrintedLine} from './format.js';
import {capturePageSnapshot, snapshotState} from './PageSnapshot.js';
import {shortLine} from './views.js';

export interface EffectInput {
  before: readonly PrintedLine[];
  /** Undefined when no snapshot could be taken after (a dialog blocks the page, or it navigated). */
  after: readonly PrintedLine[] | undefined;
  settle: SettleResult;
  /** Ids of the pages that opened during the action. */
  newPages: number[];
  /** uids the action acted on: focus moving to one of them goes without saying. */
  acted?: readonly string[];
}

const quote = (value: unknown) => (typeof value === 'string' ? `"${value}"` : 'nothing');

/** A line's text without its uid: what a node re-keyed between two snapshots keeps. */
const withoutUid = (line: PrintedLine) => line.body.replace(/^uid=\S+ ?/, '');

/**
 * Nodes added and removed, by uid; a node a verbose snapshot shows without a
 * DOM node gets a new uid each time, so an added line that reads as a
 * removed one did is the same node, not a change.
 */
function addedAndRemoved(
  before: readonly PrintedLine[],
  after: readonly PrintedLine[],
  old: ReadonlyMap<string, PrintedLine>,
): {added: number; removed: number} {
  const now = new Set(after.map(l => l.uid));
  const gone = new Map<string, number>();
  for (const line of before.filter(l => !now.has(l.uid))) {
    gone.set(withoutUid(line), (gone.get(withoutUid(line)) ?? 0) + 1);
  }
  let added = 0;
  for (const line of after.filter(l => !old.has(l.uid))) {
    const left = gone.get(withoutUid(line)) ?? 0;
    if (left > 0) {
      gone.set(withoutUid(line), left - 1);
    } else {
      added++;
    }
  }
  return {added, removed: [...gone.values()].reduce((a, b) => a + b, 0)};
}

/** Properties a focus move changes by itself: left out when a line is compared. */
const FOCUS_PROPS = new Set(['focused', 'focusable']);
/** States an action on a control toggles: said in words for the element acted on. */
const STATES = ['checked', 'pressed', 'expanded', 'selected'];

/** A line's role, name and properties but its value and focus: equal when only those changed. */
function stateKey(line: PrintedLine): string {
  const props = Object.entries(line.props).filter(([key]) => key !== 'value' && !FOCUS_PROPS.has(key));
  return JSON.stringify([line.role, line.name, props]);
}

/** `now checked`, `now not expanded`, `now checked="mixed"`: a state of the element acted on that changed. */
function stateChanges(was: PrintedLine, line: PrintedLine): string[] {
  const words = (state: string, value: string | number | boolean | undefined) =>
    value === true ? state : value === undefined || value === false ? `not ${state}` : `${state}="${value}"`;
  return STATES.filter(state => was.props[state] !== line.props[state]).map(
    state => `uid=${line.uid} now ${words(state, line.props[state])}`,
  );
}

function pageChanges(
  before: readonly PrintedLine[],
  after: readonly PrintedLine[],
  acted: readonly string[],
): string[] {
  const parts: string[] = [];
  const focusedBefore = before.find(l => l.props['focused'] === true)?.uid;
  const focusedAfter = after.find(l => l.props['focused'] === true);
  if (focusedAfter && focusedAfter.uid !== focusedBefore && !acted.includes(focusedAfter.uid)) {
    parts.push(`focus moved to ${shortLine(focusedAfter)}`);
  }
  // The element acted on goes by its uid: the agent knows what it is.
  const named = (line: PrintedLine) => (acted.includes(line.uid) ? `uid=${line.uid}` : shortLine(line));
  const old = new Map(before.map(l => [l.uid, l]));
  let changed = 0;
  for (const line of after) {
    const was = old.get(line.uid);
    if (!was) {
      continue;
    }
    if (was.props['value'] !== line.props['value']) {
      parts.push(`value of ${named(line)} changed from ${quote(was.props['value'])} to ${quote(line.props['value'])}`);
    } else if (stateKey(was) !== stateKey(line)) {
      const states = acted.includes(line.uid) ? stateChanges(was, line) : [];
      parts.push(...states);
      changed += states.length ? 0 : 1;
    }
  }
  const {added, removed} = addedAndRemoved(before, after, old);
  const counts = [
    added ? `${added} added` : '',
    removed ? `${removed} removed` : '',
    changed ? `${changed} changed` : '',
  ].filter(Boolean);
  if (counts.length) {
    parts.push(`nodes: ${counts.join(', ')}`);
  }
  return parts;
}

/** `Effect: …` for what the action did. */
export function describeEffect({before, after, settle, newPages, acted = []}: EffectInput): string {
  const parts: string[] = [];
  if (settle.navigatedToUrl) {
    parts.push(`navigated to ${settle.navigatedToUrl}`);
  }
  for (const id of newPages) {
    parts.push(`opened page ${id}`);
  }
  for (const {dialog, action} of settle.handledDialogs ?? []) {
    parts.push(`a ${dialog.type} dialog opened and was answered (${action})`);
  }
  if (settle.dialog) {
    parts.push(`a ${settle.dialog.type} dialog opened: ${quote(settle.dialog.message)}`);
  }
  if (after && !settle.navigatedToUrl) {
    parts.push(...pageChanges(before, after, acted));
  }
  return `Effect: ${parts.length ? parts.join('; ') : 'no observable change'}.`;
}

/**
 * The page's snapshot lines now (a snapshot that becomes the page's current
 * one; uids stay): verbose when the latest one was, so that a uid only a
 * verbose snapshot shows still resolves. `signal`: the call's, which stops it.
 */
export async function currentLines(page: Page, signal?: AbortSignal): Promise<PrintedLine[]> {
  await capturePageSnapshot(page, snapshotState(page).verbose, undefined, signal);
  return [...snapshotState(page).lines];
}
