// The probe's names (probe.ts holds the probe): a leaf, so that what needs only
// a name (the memory tools' declarations) does not load the probe's source.

/** sourceURL of the probe, so stack traces shown to agents can leave its frames out. */
export const PROBE_URL = 'cdp-mcp-probe.js';
/** How heap snapshots name the reference from a global to the probe (objects held only by it are ours). */
export const PROBE_HEAP_EDGE = '<symbol cdp-mcp.probe>';
