/**
 * The server's V8 heap, sized for its allocations. A call allocates in bursts
 * (one large CDP answer, one snapshot's text) that V8 answers by growing the
 * young generation to 32 MB and the old one by large steps, memory that stays
 * with the process: the bench's peak went from about 75 to 190 MB that way.
 * `node --max-semi-space-size=1 --optimize-for-size` avoided it, but clients
 * start the bin with plain `node`, so the bin sets the same at start: the
 * young generation keeps its first size (semi-space growth factor 1) and the
 * old one grows in small steps (optimize-for-size). V8 reads both at each
 * collection, so they take effect after start; `--max-semi-space-size` itself
 * is read only when the heap is made and cannot be set from here.
 *
 * It also turns off V8's optimizing compiler (TurboFan; `--no-opt`): it
 * compiles hot functions on V8's background threads, whose C allocator heaps
 * keep what each compilation used (about 10 MB over the bench's warm
 * scenarios), and its own machine code is another 4 MB of the node binary
 * paged in. The server's work is waiting on Chrome, parsing JSON and
 * building text, which the interpreter and the baseline compiler (Sparkplug,
 * still on) do as fast: the bench's click, hover, list_pages and
 * 5000-element take_snapshot medians stayed within 1.1x, and its peak RSS
 * went from 94 to 81 MB after the warm scenarios, 106 to 90 MB after the
 * 500-request navigations (docs/internals.md, "Server memory").
 *
 * Flags the user gave node (command line or NODE_OPTIONS) win: nothing is set
 * then. Only the bin does this; a program that embeds the server keeps its
 * heap and compiler.
 */
import {setFlagsFromString} from 'node:v8';

const OWN_HEAP_FLAGS =
  /--(max-semi-space-size|semi-space-growth-factor|optimize-for-size|max-old-space-size|(no-)?opt|(no-)?turbofan|max-opt)\b/;

export function tuneHeap(execArgv = process.execArgv, nodeOptions = process.env['NODE_OPTIONS'] ?? ''): boolean {
  if (OWN_HEAP_FLAGS.test(execArgv.join(' ')) || OWN_HEAP_FLAGS.test(nodeOptions)) {
    return false;
  }
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--optimize-for-size');
  setFlagsFromString('--no-opt');
  return true;
}
