/** Messages between the server (TraceHost.ts) and the trace analysis process (host.ts). */
import type {DeviceScope} from './bundle.js';

/** What the page was emulating while recording; overrides the file's own metadata. */
export interface RecordingConditions {
  cpuThrottling?: number;
  networkThrottling?: string;
}

/** What the process is told when it is forked (its first argument, as JSON). */
export interface TraceHostConfig {
  conditions: RecordingConditions;
  /** The device scope of the summary: the page's when the trace stopped. */
  summaryScope: DeviceScope;
}

/** One insight's text for each device scope a page can have; `PHONE` only when it differs. */
export interface InsightTexts {
  DESKTOP: string;
  PHONE?: string;
}

/** All the server keeps of a trace: DevTools' texts, computed in the process. */
export interface TraceReport {
  summary: string;
  /** By insight set id, then insight name; null when DevTools found no insights. */
  insights: Map<string, Map<string, InsightTexts>> | null;
}

export type TraceHostMessage =
  /** Its code loaded (sent before the DevTools bundle is imported). */
  {started: true} | {ok: true; report: TraceReport} | {ok: false; message: string};
