/**
 * The part of DevTools' trace engine and performance formatters we call,
 * typed structurally (the bundle itself is untyped JavaScript).
 */

/** Trace metadata the engine and the summary read (DevTools' Types.File.MetaData subset). */
export interface TraceMetadata {
  cpuThrottling?: number;
  networkThrottling?: string;
  [key: string]: unknown;
}

export interface InsightModelLike {
  insightKey?: string;
  [key: string]: unknown;
}

export interface InsightSet {
  id: string;
  url: URL;
  model: Record<string, InsightModelLike>;
}

export interface ParsedTrace {
  insights: Map<string, InsightSet> | null;
  metadata: TraceMetadata;
  data: {Meta: {mainFrameURL: string}};
}

export interface TraceModel {
  parse(events: readonly unknown[], config?: {metadata?: TraceMetadata}): Promise<void>;
  parsedTrace(): ParsedTrace | null;
}

/** The CrUX device scope the formatters filter field data by. */
export type DeviceScope = 'ALL' | 'DESKTOP' | 'PHONE';

export type AgentFocus = object;

export interface TraceBundle {
  setUpDevTools(): void;
  TraceEngine: {TraceModel: {Model: {createWithAllHandlers(): TraceModel}}};
  DefaultCategories: readonly string[];
  OptionalCategories: {JsSampling: readonly string[]; Screenshot: readonly string[]};
  PerformanceTraceFormatter: {
    new (focus: AgentFocus, deviceScope?: DeviceScope | null): {formatTraceSummary(): string};
    callFrameDataFormatDescription: string;
    networkDataFormatDescription: string;
  };
  PerformanceInsightFormatter: new (
    focus: AgentFocus,
    insight: InsightModelLike,
    deviceScope?: DeviceScope | null,
  ) => {formatInsight(): string};
  AgentFocus: {fromParsedTrace(parsedTrace: ParsedTrace): AgentFocus};
}
