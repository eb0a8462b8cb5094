import type {SnapNode} from './types.js';

/** Booleans that also print the capability they imply (`disabled` → `disableable`). */
const CAPABILITY: Record<string, string> = {
  disabled: 'disableable',
  expanded: 'expandable',
  focused: 'focusable',
  selected: 'selectable',
};

const squash = (text: string) => text.replace(/\s+/g, '');

/**
 * A named node whose children are only the text that makes up its name adds
 * nothing by listing them (`link "Home"` over `"Home"`); non-verbose output
 * leaves them out.
 */
export function hasRedundantTextChildren(node: SnapNode): boolean {
  if (!node.name || node.children.length === 0) {
    return false;
  }
  let text = '';
  for (const child of node.children) {
    if (child.role !== 'StaticText' || child.children.length !== 0) {
      return false;
    }
    text += child.name;
  }
  return squash(text) === squash(node.name);
}

/** One snapshot line without indentation: `uid=1_2 button "OK" disableable disabled`. */
export function formatNodeLine(node: SnapNode, uid: string): string {
  const parts = [`uid=${uid}`];
  if (node.role && node.role !== 'StaticText') {
    parts.push(node.role === 'none' ? 'ignored' : node.role);
  }
  if (node.name) {
    parts.push(`"${node.name}"`);
  }
  const isOption = node.role === 'option';
  for (const key of Object.keys(node.props).sort()) {
    const value = node.props[key];
    const capability = CAPABILITY[key];
    if (capability && typeof value === 'boolean' && !(isOption && capability === 'selectable')) {
      parts.push(capability);
    }
    if (isOption && key === 'value' && value === node.name) {
      continue;
    }
    if (value === true) {
      parts.push(key);
    } else if (typeof value === 'string' || typeof value === 'number') {
      parts.push(`${key}="${value}"`);
    }
  }
  return parts.join(' ');
}

/**
 * Walks the tree in document order (node, then children) calling `visit` for
 * every node that is printed; children hidden as redundant text are skipped.
 */
export function walkPrinted(root: SnapNode, verbose: boolean, visit: (node: SnapNode, depth: number) => void): void {
  const walk = (node: SnapNode, depth: number) => {
    visit(node, depth);
    if (!verbose && hasRedundantTextChildren(node)) {
      return;
    }
    for (const child of node.children) {
      walk(child, depth + 1);
    }
  };
  walk(root, 0);
}

/** One printed snapshot line, with what views and searches read from it. */
export interface PrintedLine {
  uid: string;
  /** Levels below the root. */
  depth: number;
  /** The line without indentation (formatNodeLine). */
  body: string;
  /** The uid of the line it is printed under. */
  parent: string | undefined;
  role: string;
  name: string;
  props: SnapNode['props'];
}

/** The printed lines of a tree, in document order. */
export function printedLines(root: SnapNode, uidOf: (node: SnapNode) => string, verbose: boolean): PrintedLine[] {
  const out: PrintedLine[] = [];
  const stack: string[] = [];
  walkPrinted(root, verbose, (node, depth) => {
    const uid = uidOf(node);
    stack.length = depth;
    out.push({uid, depth, body: formatNodeLine(node, uid), parent: stack[depth - 1], ...pick(node)});
    stack.push(uid);
  });
  return out;
}

const pick = ({role, name, props}: SnapNode) => ({role, name, props});

/** Lines as snapshot text: two spaces of indent per level, each line ending in a newline. */
export function linesText(lines: ReadonlyArray<{depth: number; body: string}>): string {
  return lines.map(line => `${'  '.repeat(line.depth)}${line.body}\n`).join('');
}

/** The snapshot text: one line per node, two spaces of indent per level, each line ending in a newline. */
export function formatSnapshot(root: SnapNode, uidOf: (node: SnapNode) => string, verbose: boolean): string {
  return linesText(printedLines(root, uidOf, verbose));
}
