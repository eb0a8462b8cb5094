/**
 * What is open on top of the page, named in one line at the top of a
 * snapshot (take_snapshot `openLayer`, and with `interactive`): a modal
 * dialog (aria-modal or `<dialog>` shown modal), a dialog holding the focus,
 * an open menu, or the listbox of an expanded combobox or popup button, each
 * with its uid so that an agent can scope to it.
 */
import type {PrintedLine} from './format.js';
import {shortLine} from './views.js';

const DIALOGS = new Set(['dialog', 'alertdialog']);

/** uids of the focused line and of every line it is printed under. */
function focusPath(lines: readonly PrintedLine[]): Set<string> {
  const parentOf = new Map(lines.map(line => [line.uid, line.parent]));
  const path = new Set<string>();
  const focused = lines.find(line => line.props['focused'] === true);
  for (let uid = focused?.uid; uid !== undefined; uid = parentOf.get(uid)) {
    path.add(uid);
  }
  return path;
}

/** What kind of open layer the line is, or undefined. */
function layerKind(line: PrintedLine, focus: Set<string>, popupOpen: boolean): string | undefined {
  if (line.props['modal'] === true) {
    return `modal ${line.role}`;
  }
  if (DIALOGS.has(line.role) && focus.has(line.uid)) {
    return line.role;
  }
  if (line.role === 'menu' || (line.role === 'listbox' && popupOpen)) {
    return line.role;
  }
  return undefined;
}

/** The open layers of a snapshot, outermost first, as `modal dialog uid=4_0 "Confirm" (focus inside)`. */
export function openLayers(lines: readonly PrintedLine[]): string[] {
  const focus = focusPath(lines);
  const popupOpen = lines.some(
    line => line.props['expanded'] === true && (line.role === 'combobox' || line.props['haspopup'] !== undefined),
  );
  const found: string[] = [];
  for (const line of lines) {
    const kind = layerKind(line, focus, popupOpen);
    if (kind) {
      const where = shortLine(line).replace(/^uid=\S+ \S+/, `uid=${line.uid}`);
      found.push(`${kind} ${where}${focus.has(line.uid) ? ' (focus inside)' : ''}`);
    }
  }
  return found;
}

/** The line naming the open layers; undefined when none is open and `always` is not set. */
export function openLayerLine(lines: readonly PrintedLine[], always: boolean): string | undefined {
  const layers = openLayers(lines);
  if (!layers.length) {
    return always ? 'Open: no modal dialog, menu or listbox.' : undefined;
  }
  return `Open: ${layers.join('; ')}. Pass its uid to take_snapshot or find_elements to see only it.`;
}
