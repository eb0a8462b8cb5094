import type {LighthouseAuditNode, LighthouseFailedAudit, LighthouseSummary} from '../../response/formatLighthouse.js';
import type {Lhr, LhrNode} from './bundle.js';

/** Nodes shown per failed audit; the saved reports have them all. */
export const MAX_NODES_PER_AUDIT = 10;

/** Passed = score exactly 1; failed = a score below 1 (audits without a score are neither). */
export function countAudits(lhr: Lhr): {passed: number; failed: number} {
  let passed = 0;
  let failed = 0;
  for (const audit of Object.values(lhr.audits)) {
    if (audit.score === 1) {
      passed++;
    } else if (audit.score !== null && audit.score < 1) {
      failed++;
    }
  }
  return {passed, failed};
}

/** Every failed audit with the categories that reference it and the DOM nodes it flags. */
export function failedAudits(lhr: Lhr): LighthouseFailedAudit[] {
  const categoriesOf = new Map<string, string[]>();
  for (const category of Object.values(lhr.categories)) {
    for (const {id} of category.auditRefs) {
      categoriesOf.set(id, [...(categoriesOf.get(id) ?? []), category.id]);
    }
  }
  const failed: LighthouseFailedAudit[] = [];
  for (const audit of Object.values(lhr.audits)) {
    if (audit.score === null || audit.score >= 1) {
      continue;
    }
    const nodes = new Map<string, LighthouseAuditNode>();
    collectNodes(audit.details, nodes);
    failed.push({
      id: audit.id,
      title: audit.title,
      score: audit.score,
      categories: categoriesOf.get(audit.id) ?? [],
      ...(audit.description ? {description: audit.description} : {}),
      ...(audit.displayValue ? {displayValue: audit.displayValue} : {}),
      nodes: [...nodes.values()].slice(0, MAX_NODES_PER_AUDIT),
      totalNodes: nodes.size,
    });
  }
  return failed;
}

/**
 * Walks audit details (tables, lists of tables, …) for node values. Sub-items
 * are skipped: for axe audits they hold related elements (the background of a
 * contrast failure), not failing ones. Debug data holds no nodes.
 */
function collectNodes(value: unknown, nodes: Map<string, LighthouseAuditNode>): void {
  if (Array.isArray(value)) {
    for (const item of value) {
      collectNodes(item, nodes);
    }
    return;
  }
  if (!value || typeof value !== 'object') {
    return;
  }
  const record = value as Record<string, unknown>;
  if (record['type'] === 'debugdata' || record['type'] === 'subitems') {
    return;
  }
  if (record['type'] === 'node') {
    const node = record as unknown as LhrNode;
    const key = nodeKey(node, nodes.size);
    // The same element can appear more than once; keep the fields of every occurrence.
    nodes.set(key, {...pickNode(node), ...nodes.get(key)});
    return;
  }
  for (const [name, child] of Object.entries(record)) {
    if (name !== 'subItems') {
      collectNodes(child, nodes);
    }
  }
}

function nodeKey(node: LhrNode, count: number): string {
  const id = text(node.lhId) ?? text(node.path);
  if (id) {
    return `id:${id}`;
  }
  const selector = text(node.selector);
  const snippet = text(node.snippet);
  // Nodes with nothing to identify them are never merged.
  return selector || snippet ? `selector:${selector ?? ''}|${snippet ?? ''}` : `unidentified:${count}`;
}

function pickNode(node: LhrNode): LighthouseAuditNode {
  const picked: LighthouseAuditNode = {};
  for (const key of ['selector', 'snippet', 'nodeLabel', 'explanation'] as const) {
    const value = text(node[key]);
    if (value) {
      picked[key] = value;
    }
  }
  return picked;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The printed summary of a run, with the paths its reports were saved to. */
export function summarize(
  run: {lhr: Lhr; navigated: boolean},
  options: {mode: string; device: string; reports: string[]; pageUrl: string},
): LighthouseSummary {
  const {lhr} = run;
  return {
    mode: options.mode,
    device: options.device,
    // finalDisplayedUrl exists in every mode; mainDocumentUrl only for navigations.
    url: lhr.finalDisplayedUrl,
    ...(lhr.runtimeError ? {runtimeError: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}`} : {}),
    scores: Object.values(lhr.categories).map(({id, title, score}) => ({id, title, score})),
    ...countAudits(lhr),
    totalMs: lhr.timing.total,
    failedAudits: failedAudits(lhr),
    reports: options.reports,
    ...(run.navigated
      ? {
          note: `Lighthouse reloaded the page to audit it (now ${options.pageUrl}): call take_snapshot before using element uids again.`,
        }
      : {}),
  };
}
