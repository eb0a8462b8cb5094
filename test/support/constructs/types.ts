import type {ElementQuery} from '../oracle.js';

/** Where construct pages are served: the page's own origin and another site (out-of-process iframes). */
export interface ConstructHosts {
  /** Base URL of the fixture server as the page sees itself, e.g. http://127.0.0.1:4000. */
  origin: string;
  /** The same server under another site (localhost vs 127.0.0.1), for cross-site iframes. */
  crossOrigin: string;
}

/** One interaction the oracle runs on both servers between snapshots. */
export interface ConstructStep {
  /** What the step does, for test names and diff headers. */
  title: string;
  tool: string;
  /** The element the tool acts on, found by role and name in each server's own snapshot. */
  target?: ElementQuery;
  /** The argument that carries the target's uid (`uid` unless told). */
  uidParam?: string;
  args?: Record<string, unknown>;
}

/**
 * A small page covering one accessibility construct, compared between our
 * snapshot and chrome-devtools-mcp's after load and after each step.
 */
export interface Construct {
  /** Served at /constructs/<name>; named after what it covers. */
  name: string;
  /** The constructs the page exercises (shown in test names). */
  covers: string;
  html(hosts: ConstructHosts): string;
  /** Further documents the page loads (iframes), by path. */
  routes?: (hosts: ConstructHosts) => Record<string, string>;
  steps?: ConstructStep[];
  /** Text that is on the page once it is ready (waited for before the first snapshot). */
  ready?: string;
}

/** A full HTML document around a body. */
export function page(title: string, body: string, head = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;
}
