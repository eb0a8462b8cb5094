/**
 * The leak verdict compare_heapsnapshots adds after the reference's diff:
 * which classes grew in both object count and size, and for each the chain
 * of references that keeps its newest object alive (DevTools' shortest
 * retaining path), so the agent can go straight to the code that holds it.
 */
import {formatBytesToKb, formatName, type FormatOptions} from './format.js';
import type {GrownClass, LeakVerdict} from './results.js';

/** Classes the verdict explains (named classes before DevTools' internal buckets). */
export const LEAK_VERDICT_CLASSES = 3;

/** DevTools' synthetic buckets: "(array)", "(string)", "system / Context", … */
export function isInternalClass(name: string): boolean {
  return name.startsWith('(') || name.startsWith('system / ');
}

/** The reference nearest the GC roots that code can name: a property or variable of a real object. */
function holder(grown: GrownClass): GrownClass['path'][number] | undefined {
  const named = grown.path.filter(
    step => ['property', 'context', 'element', 'shortcut'].includes(step.edgeType) && !isInternalClass(step.nodeName),
  );
  return named.at(-1);
}

export function formatLeakVerdict(verdict: LeakVerdict, options: FormatOptions): string[] {
  const lines = ['### Leak Verdict'];
  if (verdict.classes.length === 0) {
    lines.push('No class grew in both object count and size between the two snapshots: no sign of a leak.');
    return lines;
  }
  lines.push(
    `${verdict.grownClassCount} ${verdict.grownClassCount === 1 ? 'class' : 'classes'} grew in both object count and size. Check first:`,
  );
  for (const grown of verdict.classes) {
    const name = formatName(grown.className, options);
    const growth = `+${grown.countDelta} objects, +${formatBytesToKb(grown.sizeDelta)}`;
    const by = holder(grown);
    if (grown.path.length === 0) {
      lines.push(
        `- ${name}: ${growth}. Its newest object @${grown.sampleId} has no retaining path from the GC roots (it is about to be collected).`,
      );
      continue;
    }
    const through = by
      ? ` through ${by.edgeType} "${formatName(by.edgeName, options)}" of ${formatName(by.nodeName, options)}`
      : '';
    lines.push(`- ${name}: ${growth}. Its newest object @${grown.sampleId} is retained${through}:`);
    for (const step of grown.path) {
      lines.push(
        `  <- @${step.nodeId} ${formatName(step.nodeName, options)} via ${step.edgeType} ${formatName(step.edgeName, options)} (distance: ${step.distance})`,
      );
    }
  }
  return lines;
}
