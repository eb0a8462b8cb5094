/**
 * The snapshot tree as structured content gives it (`{id, role, name, …,
 * children}`, as chrome-devtools-mcp's snapshot JSON), read back from the
 * printed snapshot text: one node per line, two spaces of indent per level,
 * `uid=<id> <role> "<name>"` then `key="value"` and bare `key` (true).
 * Reading the text keeps this independent of the snapshot engine.
 */

/** One node of the structured snapshot. */
export interface SnapshotJsonNode {
  id: string;
  role?: string;
  name?: string;
  children?: SnapshotJsonNode[];
  [attribute: string]: string | number | boolean | SnapshotJsonNode[] | undefined;
}

/** Properties the accessibility serializer gives as numbers. */
const NUMERIC = new Set(['level', 'valuemin', 'valuemax']);
/** Attributes after the name: bare words and `key="value"` pairs. */
const ATTRIBUTES = /^(?: [a-zA-Z][\w-]*(?:="[^"]*")?)*$/;
const ATTRIBUTE = / ([a-zA-Z][\w-]*)(?:="([^"]*)")?/g;

function attributes(text: string, node: SnapshotJsonNode): void {
  for (const [, key = '', value] of text.matchAll(ATTRIBUTE)) {
    node[key] = value === undefined ? true : NUMERIC.has(key) && value !== '' ? Number(value) : value;
  }
}

/**
 * The name runs to the first closing quote after which only attributes
 * follow (names may contain quotes themselves; the last such quote would
 * swallow the attributes, as in `RootWebArea "Dev" url="…"`).
 */
function splitName(rest: string): {name: string; tail: string} | undefined {
  for (let end = 1; end < rest.length; end++) {
    if (rest[end] === '"' && ATTRIBUTES.test(rest.slice(end + 1))) {
      return {name: rest.slice(1, end), tail: rest.slice(end + 1)};
    }
  }
  return undefined;
}

/** One printed line (without indent) as a node. */
export function parseSnapshotLine(line: string): SnapshotJsonNode | undefined {
  const match = /^uid=(\S+)(.*)$/.exec(line.replace(/ \[selected in the DevTools Elements panel\]$/, ''));
  if (!match) {
    return undefined;
  }
  const node: SnapshotJsonNode = {id: match[1] ?? ''};
  let rest = match[2] ?? '';
  const role = /^ ([^\s"=]+)(?= |$)/.exec(rest);
  if (role && !rest.startsWith(` ${role[1]}=`)) {
    node.role = role[1] === 'ignored' ? 'none' : role[1];
    rest = rest.slice(role[0].length);
  }
  if (rest.startsWith(' "')) {
    const named = splitName(rest.slice(1));
    if (named) {
      node.name = named.name;
      rest = named.tail;
    }
  }
  // Text nodes print no role.
  node.role ??= 'StaticText';
  attributes(rest, node);
  return node;
}

/** The tree of a printed snapshot; undefined when the text has no node line. */
export function snapshotJson(text: string): SnapshotJsonNode | undefined {
  let root: SnapshotJsonNode | undefined;
  const stack: Array<{depth: number; node: SnapshotJsonNode}> = [];
  for (const raw of text.split('\n')) {
    const depth = (raw.length - raw.trimStart().length) / 2;
    const node = parseSnapshotLine(raw.trimStart());
    if (!node) {
      continue;
    }
    while (stack.length && (stack.at(-1)?.depth ?? 0) >= depth) {
      stack.pop();
    }
    const parent = stack.at(-1)?.node;
    if (parent) {
      (parent.children ??= []).push(node);
    } else {
      root ??= node;
    }
    stack.push({depth, node});
  }
  return root;
}
