/**
 * find_elements: the snapshot lines whose role, name or value hold a text,
 * each group under one line naming its ancestors. It takes a snapshot of the
 * page (making its uids the ones tools resolve, the same as take_snapshot's)
 * but shows only the matches.
 */
import type {Page} from '../browser/core/Page.js';
import type {PrintedLine} from './format.js';
import {capturePageSnapshot, snapshotState} from './PageSnapshot.js';
import {ancestorsOf, shortLine} from './views.js';

export interface ElementQuery {
  /** Text matched, case-insensitively, against role, name and value. */
  query: string;
  /** Only nodes of this role (case-insensitive). */
  role?: string;
  /** Show at most this many matches. */
  limit: number;
}

function matches(line: PrintedLine, needle: string, role: string | undefined): boolean {
  const printedRole = (line.role === 'none' ? 'ignored' : line.role).toLowerCase();
  if (role !== undefined && printedRole !== role && line.role.toLowerCase() !== role) {
    return false;
  }
  const value = line.props['value'];
  return (
    printedRole.includes(needle) ||
    line.name.toLowerCase().includes(needle) ||
    (typeof value === 'string' && value.toLowerCase().includes(needle))
  );
}

function describeQuery(query: ElementQuery): string {
  return `"${query.query}"${query.role === undefined ? '' : ` (role ${query.role})`}`;
}

/**
 * The response lines for the matches of `query` among a snapshot's lines:
 * the matching lines, each group under one `In:` line of its ancestors (the
 * page's root left out: it is the same for every match), and how many more
 * matched when `limit` cut them. Short: an agent calls it at every step.
 */
export function formatMatches(lines: readonly PrintedLine[], query: ElementQuery): string[] {
  const needle = query.query.toLowerCase();
  const role = query.role?.toLowerCase();
  const found: number[] = [];
  lines.forEach((line, index) => {
    if (matches(line, needle, role)) {
      found.push(index);
    }
  });
  if (!found.length) {
    return [
      `No element matches ${describeQuery(query)} among ${lines.length} nodes. take_snapshot with interactive=true lists what can be acted on.`,
    ];
  }
  const shown = found.slice(0, query.limit);
  const out: string[] = [];
  let lastChain: string | undefined;
  for (const index of shown) {
    const chain = ancestorsOf(lines, index)
      .filter(line => line !== lines[0])
      .map(shortLine)
      .join(' > ');
    if (chain !== lastChain) {
      out.push(chain ? `In: ${chain}` : 'At the top:');
      lastChain = chain;
    }
    out.push(`  ${lines[index]?.body ?? ''}`);
  }
  const more = found.length - shown.length;
  if (more) {
    out.push(`${more} more matched: narrow the query, give a role, or raise limit.`);
  }
  return out;
}

/** Takes a snapshot of the page (`signal`: the call's, which stops it) and returns its lines matching `query` (formatMatches). */
export async function findElements(page: Page, query: ElementQuery, signal?: AbortSignal): Promise<string[]> {
  await capturePageSnapshot(page, false, undefined, signal);
  return formatMatches(snapshotState(page).lines, query);
}
