/**
 * Counts of live objects of a few kinds (MCP sessions, browser scopes, pages)
 * for leak checks: each object counts from its creation until the garbage
 * collector has taken it. Off (and free) unless CDP_MCP_HEAP_REPORT=1, the
 * switch of the leak report (server/lifecycle.ts).
 */
const counts = new Map<string, number>();
const registry =
  process.env['CDP_MCP_HEAP_REPORT'] === '1'
    ? new FinalizationRegistry<string>(kind => counts.set(kind, (counts.get(kind) ?? 1) - 1))
    : undefined;

/** Counts `object` as a live `kind` until it is collected (when leak reports are on). */
export function trackLive(kind: string, object: object): void {
  if (registry) {
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
    registry.register(object, kind);
  }
}

/** Live objects per kind (collected ones are subtracted once their finalizers have run). */
export function liveCounts(): Record<string, number> {
  return Object.fromEntries(counts);
}
