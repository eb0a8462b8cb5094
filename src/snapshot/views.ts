/**
 * take_snapshot's aimed views (`uid`, `depth`, `interactive`): parts of the
 * page's latest printed snapshot, with the same uids and the same line
 * bodies, so that sinceLast can compare the same view of two snapshots and
 * every uid shown can be acted on at once.
 */
import type {Line} from './diff.js';
import type {PrintedLine} from './format.js';

export interface ViewOptions {
  /** Only this element's subtree (its ancestors as one line of context). */
  uid?: string;
  /** Only this many levels below the root (the page's or the uid's). */
  depth?: number;
  /** Only what an agent can act on, under the landmark, dialog or heading it sits in. */
  interactive?: boolean;
}

export interface View {
  lines: Line[];
  /** Lines shown before the tree (the ancestor chain of a uid view, what interactive shows). */
  head: string[];
  /** Lines shown after it (what depth left out). */
  tail: string[];
}

/** Roles an agent acts on (click, fill, hover, select). */
const ACTIONABLE = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'combobox',
  'checkbox',
  'radio',
  'switch',
  'slider',
  'spinbutton',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'tab',
  'treeitem',
  'listbox',
  'DisclosureTriangle',
]);
/** States only controls have: a line carrying one is actionable whatever its role. */
const CONTROL_STATES = ['checked', 'pressed', 'expanded', 'selected', 'focused'];
/** Landmarks, dialogs, widgets and documents: the places an actionable element sits in. */
const PLACES = new Set([
  'banner',
  'navigation',
  'main',
  'complementary',
  'contentinfo',
  'region',
  'search',
  'form',
  'dialog',
  'alertdialog',
  'menu',
  'menubar',
  'listbox',
  'tablist',
  'tabpanel',
  'tree',
  'treegrid',
  'grid',
  'toolbar',
  'radiogroup',
  'Iframe',
  'RootWebArea',
]);

export function isActionable(line: PrintedLine): boolean {
  return ACTIONABLE.has(line.role) || CONTROL_STATES.some(state => line.props[state] !== undefined);
}

const NAME_IN_CHAIN = 40;

/** `uid=1_4 dialog "Delete this report?"`: a line in short (no properties, long names cut). */
export function shortLine(line: PrintedLine): string {
  const role = line.role === 'StaticText' ? '' : ` ${line.role === 'none' ? 'ignored' : line.role}`;
  const name = line.name.length > NAME_IN_CHAIN ? `${line.name.slice(0, NAME_IN_CHAIN - 1)}…` : line.name;
  return `uid=${line.uid}${role}${name ? ` "${name}"` : ''}`;
}

/** The ancestors of the line at `index`, root first. */
export function ancestorsOf(lines: readonly PrintedLine[], index: number): PrintedLine[] {
  const chain: PrintedLine[] = [];
  let depth = lines[index]?.depth ?? 0;
  for (let i = index - 1; i >= 0 && depth > 0; i--) {
    const line = lines[i];
    if (line && line.depth < depth) {
      chain.unshift(line);
      depth = line.depth;
    }
  }
  return chain;
}

/** The subtree of `uid`, re-rooted (the uid's line at depth 0), and its ancestors; undefined when it is not there. */
function subtree(lines: readonly PrintedLine[], uid: string): {lines: PrintedLine[]; chain: PrintedLine[]} | undefined {
  const start = lines.findIndex(line => line.uid === uid);
  const root = lines[start];
  if (!root) {
    return undefined;
  }
  const out: PrintedLine[] = [{...root, depth: 0, parent: undefined}];
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i];
    if (!line || line.depth <= root.depth) {
      break;
    }
    out.push({...line, depth: line.depth - root.depth});
  }
  return {lines: out, chain: ancestorsOf(lines, start)};
}

/** The lines down to `depth` levels below the root; a line whose children were left out says how many nodes it holds. */
function limitDepth(lines: readonly PrintedLine[], depth: number): {lines: PrintedLine[]; hidden: number} {
  const out: PrintedLine[] = [];
  const below = new Map<PrintedLine, number>();
  let cut: PrintedLine | undefined;
  for (const line of lines) {
    if (line.depth <= depth) {
      out.push(line);
      cut = line.depth === depth ? line : undefined;
    } else if (cut) {
      below.set(cut, (below.get(cut) ?? 0) + 1);
    }
  }
  const shown = out.map(line => {
    const n = below.get(line);
    return n ? {...line, body: `${line.body} [+${n} below]`} : line;
  });
  return {lines: shown, hidden: lines.length - out.length};
}

interface Frame {
  line: PrintedLine;
  parent: Frame | undefined;
  out?: Line;
}

/** What the lines below a place see: the place, and the headings met in it so far (outermost first). */
interface Scope {
  frame: Frame;
  headings: Array<{level: number; frame: Frame}>;
}

/**
 * The actionable lines, each under the nearest place (landmark, dialog,
 * widget, document) or heading it sits in; places and headings with nothing
 * actionable are left out. A heading governs what follows it in its place up
 * to the next heading of the same or a higher level.
 */
export function interactiveLines(lines: readonly PrintedLine[]): Line[] {
  const out: Line[] = [];
  const emit = (frame: Frame): Line => {
    if (!frame.out) {
      const parent = frame.parent ? emit(frame.parent) : undefined;
      const {uid, body} = frame.line;
      frame.out = {uid, body, depth: parent ? parent.depth + 1 : 0, parent: parent?.uid};
      out.push(frame.out);
    }
    return frame.out;
  };
  const scopes: Scope[] = [];
  lines.forEach((line, index) => {
    const inherited = scopes[line.depth - 1];
    if (!inherited || index === 0) {
      const frame: Frame = {line, parent: undefined};
      emit(frame);
      scopes[line.depth] = {frame, headings: []};
      return;
    }
    if (line.role === 'heading') {
      const level = Number(line.props['level'] ?? 7);
      const headings = inherited.headings;
      while ((headings.at(-1)?.level ?? 0) >= level) {
        headings.pop();
      }
      headings.push({level, frame: {line, parent: headings.at(-1)?.frame ?? inherited.frame}});
    }
    const top = inherited.headings.at(-1)?.frame ?? inherited.frame;
    const frame: Frame = line.role === 'heading' ? top : {line, parent: top};
    const actionable = isActionable(line);
    if (actionable) {
      emit(frame);
    }
    scopes[line.depth] = actionable || PLACES.has(line.role) ? {frame, headings: []} : inherited;
  });
  return out;
}

/** The view of a snapshot's lines; throws when `uid` is not among them and `lenient` is not set. */
export function snapshotView(lines: readonly PrintedLine[], options: ViewOptions, lenient = false): View {
  const head: string[] = [];
  const tail: string[] = [];
  let shown: readonly PrintedLine[] = lines;
  if (options.uid !== undefined) {
    const part = subtree(lines, options.uid);
    if (!part) {
      if (lenient) {
        return {lines: [], head, tail};
      }
      throw new Error(
        `Element uid "${options.uid}" is not on the page (anymore): take a snapshot without uid for current uids.`,
      );
    }
    shown = part.lines;
    if (part.chain.length) {
      head.push(`In: ${part.chain.map(shortLine).join(' > ')}`);
    }
  }
  if (options.depth !== undefined) {
    const limited = limitDepth(shown, options.depth);
    shown = limited.lines;
    if (limited.hidden) {
      tail.push(
        `${limited.hidden} deeper node${limited.hidden === 1 ? '' : 's'} not shown (depth ${options.depth}); "[+N below]" marks where. Pass a uid to see its subtree.`,
      );
    }
  }
  if (!options.interactive) {
    return {lines: [...shown], head, tail};
  }
  const actionable = interactiveLines(shown);
  head.push(
    `Interactive elements only (${shown.filter(isActionable).length} of ${shown.length} nodes), each under the landmark, dialog or heading it sits in.`,
  );
  return {lines: actionable, head, tail};
}
