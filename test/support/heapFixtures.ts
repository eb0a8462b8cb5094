/** Pages and files for the heap snapshot tests and the heap bench. */
import {readFileSync, writeFileSync} from 'node:fs';

/** Instances of LeakyWidget created at load, and added by each click on "Grow". */
export const LEAK_INITIAL = 500;
export const LEAK_PER_CLICK = 1500;
/** Each widget's label is one of this many values, built at run time (so each is a separate string). */
export const LEAK_LABELS = 10;

/** A page that leaks LeakyWidget objects into a global array, more on every click of its button. */
export const LEAK_PAGE = `<!doctype html><title>Leak</title><button id="grow">Grow</button>
<script>
class LeakyWidget {
  constructor(index) {
    this.index = index;
    this.label = 'widget-' + (index % ${LEAK_LABELS});
    this.payload = new Array(16).fill(index);
  }
}
window.leakedWidgets = [];
function grow(count) {
  for (let i = 0; i < count; i++) window.leakedWidgets.push(new LeakyWidget(window.leakedWidgets.length));
}
grow(${LEAK_INITIAL});
document.getElementById('grow').addEventListener('click', () => grow(${LEAK_PER_CLICK}));
</script>`;

/**
 * A page that allocates `count` small objects with their own strings and
 * arrays (about 330 bytes of snapshot each: 600 000 give about 200 MB).
 */
export function allocatingPage(count: number): string {
  return `<!doctype html><title>Big</title><script>
window.big = [];
for (let i = 0; i < ${count}; i++) window.big.push({id: i, name: 'n' + i, tags: [i, i + 1]});
</script>`;
}

const META = {
  node_fields: ['type', 'name', 'id', 'self_size', 'edge_count', 'trace_node_id', 'detachedness'],
  node_types: [
    ['hidden', 'array', 'string', 'object', 'code', 'closure', 'regexp', 'number', 'native', 'synthetic'],
    'string',
    'number',
    'number',
    'number',
    'number',
    'number',
  ],
  edge_fields: ['type', 'name_or_index', 'to_node'],
  edge_types: [
    ['context', 'element', 'property', 'internal', 'hidden', 'shortcut', 'weak'],
    'string_or_number',
    'node',
  ],
};

/**
 * A well-formed one-node snapshot whose string table has `strings` distinct
 * short strings: parsing it takes far more memory than its size suggests
 * (each string is a separate object), which is what the out-of-memory test needs.
 */
export function writeStringHeavySnapshot(path: string, strings: number): void {
  const values: string[] = [];
  for (let i = 0; i < strings; i++) {
    values.push(JSON.stringify(i.toString(36)));
  }
  const head = {meta: META, node_count: 1, edge_count: 0, trace_function_count: 0};
  writeFileSync(
    path,
    `{"snapshot":${JSON.stringify(head)},"nodes":[9,0,1,0,0,0,0],"edges":[],"strings":[${values.join(',')}]}`,
  );
}

/** The first `fraction` of a snapshot file, as a crashed or interrupted save leaves it. */
export function writeTruncatedCopy(source: string, target: string, fraction = 0.5): void {
  const data = readFileSync(source);
  writeFileSync(target, data.subarray(0, Math.floor(data.length * fraction)));
}

/** A snapshot whose string table is broken JSON (complete otherwise). */
export function writeCorruptCopy(source: string, target: string): void {
  const text = readFileSync(source, 'utf8');
  const end = text.lastIndexOf(']');
  writeFileSync(target, `${text.slice(0, end)},"broken" oops${text.slice(end)}`);
}
