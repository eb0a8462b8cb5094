import {errorMessage} from '../../util/async.js';
import {loadTraceBundle} from '../vendor.js';
import type {DeviceScope, ParsedTrace, TraceBundle, TraceMetadata} from './bundle.js';
import {parseTraceFile} from './traceFile.js';

/** A trace parsed by DevTools' engine, ready to be summarised and queried. */
export interface AnalyzedTrace {
  readonly parsedTrace: ParsedTrace;
  readonly bundle: TraceBundle;
}

/** What the page was emulating while recording; overrides the file's own metadata. */
export interface RecordingConditions {
  cpuThrottling?: number;
  networkThrottling?: string;
}

/**
 * Parses raw trace bytes with DevTools' engine (all handlers, all insights).
 * A fresh model per trace: the engine keeps every trace it parsed.
 */
export async function analyzeTrace(buffer: Buffer, conditions: RecordingConditions = {}): Promise<AnalyzedTrace> {
  const bundle = await loadTraceBundle();
  const fail = (detail: string) => new Error(`There was an unexpected error parsing the trace: ${detail}`);
  if (buffer.length === 0) {
    throw fail('No buffer was provided.');
  }
  let events: unknown[];
  let fileMetadata: TraceMetadata;
  try {
    ({events, metadata: fileMetadata} = parseTraceFile(buffer));
  } catch (error) {
    throw fail(errorMessage(error));
  }
  if (events.length === 0) {
    throw fail('No trace events were found in the trace buffer.');
  }
  const metadata: TraceMetadata = {
    ...fileMetadata,
    ...(conditions.cpuThrottling !== undefined ? {cpuThrottling: conditions.cpuThrottling} : {}),
    ...(conditions.networkThrottling !== undefined ? {networkThrottling: conditions.networkThrottling} : {}),
  };
  const model = bundle.TraceEngine.TraceModel.Model.createWithAllHandlers();
  try {
    await model.parse(events, {metadata: Object.keys(metadata).length ? metadata : undefined});
  } catch (error) {
    throw fail(errorMessage(error));
  }
  const parsedTrace = model.parsedTrace();
  if (!parsedTrace) {
    throw fail('No parsed trace was returned from the trace engine.');
  }
  return {parsedTrace, bundle};
}

/** The summary chrome-devtools-mcp prints after a trace, from DevTools' formatter. */
export function formatTraceSummary(trace: AnalyzedTrace, deviceScope: DeviceScope): string {
  const {bundle, parsedTrace} = trace;
  const Formatter = bundle.PerformanceTraceFormatter;
  const summary = new Formatter(bundle.AgentFocus.fromParsedTrace(parsedTrace), deviceScope).formatTraceSummary();
  return `## Summary of Performance trace findings:
${summary}

## Details on call tree & network request formats:
Information on performance traces may contain main thread activity represented as call frames and network requests.

${Formatter.callFrameDataFormatDescription}

${Formatter.networkDataFormatDescription}`;
}

/** One insight in full (DevTools' insight formatter), or the reference's answer when it does not exist. */
export function formatInsight(
  trace: AnalyzedTrace,
  insightSetId: string,
  insightName: string,
  deviceScope: DeviceScope,
): string {
  const {bundle, parsedTrace} = trace;
  if (!parsedTrace.insights) {
    return 'No Performance insights are available for this trace.';
  }
  const insightSet = parsedTrace.insights.get(insightSetId);
  if (!insightSet) {
    return 'No Performance Insights for the given insight set id. Only use ids given in the "Available insight sets" list.';
  }
  const insight = Object.hasOwn(insightSet.model, insightName) ? insightSet.model[insightName] : undefined;
  if (!insight) {
    return `No Insight with the name ${insightName} found. Double check the name you provided is accurate and try again.`;
  }
  const focus = bundle.AgentFocus.fromParsedTrace(parsedTrace);
  return new bundle.PerformanceInsightFormatter(focus, insight, deviceScope).formatInsight();
}

/** Insight set ids with the names of their insights (for tests and structured use). */
export function insightNames(trace: AnalyzedTrace): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const [id, set] of trace.parsedTrace.insights ?? []) {
    names.set(id, Object.keys(set.model));
  }
  return names;
}
