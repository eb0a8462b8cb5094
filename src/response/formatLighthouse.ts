/** A DOM node a failed audit flags (from Lighthouse's node details). */
export interface LighthouseAuditNode {
  selector?: string;
  nodeLabel?: string;
  snippet?: string;
  explanation?: string;
}

export interface LighthouseFailedAudit {
  id: string;
  title: string;
  score: number;
  categories: string[];
  description?: string;
  displayValue?: string;
  /** The first nodes (the response shows a bounded number). */
  nodes: LighthouseAuditNode[];
  totalNodes: number;
}

/** What lighthouse_audit prints, already extracted from the Lighthouse result. */
export interface LighthouseSummary {
  mode: string;
  device: string;
  url: string;
  /** Lighthouse's fatal error for the run (e.g. the page did not load), when it has one. */
  runtimeError?: string;
  scores: Array<{id: string; title: string; score: number | null}>;
  passed: number;
  failed: number;
  totalMs: number;
  failedAudits: LighthouseFailedAudit[];
  reports: string[];
  /** What the audit changed on the page, for the agent (e.g. it reloaded it). */
  note?: string;
}

const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The `## Lighthouse audit results` section, in the reference's (1.11) layout. */
export function formatLighthouse(summary: LighthouseSummary): string[] {
  const out = [
    '## Lighthouse audit results',
    `Mode: ${summary.mode}`,
    `Device: ${summary.device}`,
    `URL: ${summary.url}`,
  ];
  if (summary.runtimeError) {
    out.push(`Runtime error: ${collapse(summary.runtimeError)}`);
  }
  out.push('### Category scores');
  for (const {id, title, score} of summary.scores) {
    out.push(`- ${title}: ${score === null ? 'n/a' : Math.round(score * 100)} (${id})`);
  }
  out.push(
    '### Audit summary',
    `Passed: ${summary.passed}`,
    `Failed: ${summary.failed}`,
    `Total timing: ${summary.totalMs}ms`,
  );
  if (summary.failedAudits.length) {
    out.push('### Failed audits');
    for (const audit of summary.failedAudits) {
      out.push(...formatFailedAudit(audit));
    }
  }
  out.push('### Reports', ...summary.reports.map(path => `- ${path}`));
  if (summary.note) {
    out.push(summary.note);
  }
  return out;
}

function formatFailedAudit(audit: LighthouseFailedAudit): string[] {
  const categories = audit.categories.length ? ` [${audit.categories.join(', ')}]` : '';
  const value = audit.displayValue ? ` (${audit.displayValue})` : '';
  const out = [`- ${audit.id}${categories}: ${audit.title}${value} (score: ${audit.score})`];
  if (audit.description) {
    out.push(`  ${collapse(audit.description)}`);
  }
  if (audit.totalNodes) {
    const shown = audit.totalNodes > audit.nodes.length ? `, showing ${audit.nodes.length}` : '';
    out.push(`  Nodes (${audit.totalNodes}${shown}):`);
  }
  for (const node of audit.nodes) {
    // JSON strings, so quotes and spaces inside values cannot be taken for separators.
    const fields = [
      node.selector && `selector=${JSON.stringify(node.selector)}`,
      node.nodeLabel && `label=${JSON.stringify(collapse(node.nodeLabel))}`,
      node.snippet && `snippet=${JSON.stringify(collapse(node.snippet))}`,
    ].filter(Boolean);
    out.push(`  - ${fields.join(' ')}`);
    if (node.explanation) {
      out.push(`    ${collapse(node.explanation)}`);
    }
  }
  return out;
}
