import {errorMessage} from '../../util/async.js';
import {loadTraceBundle} from '../vendor.js';
import type {DeviceScope, ParsedTrace, TraceBundle, TraceMetadata} from './bundle.js';
import type {InsightTexts, RecordingConditions, TraceReport} from './hostProtocol.js';
import {NO_INSIGHT_SET, NO_INSIGHTS, noInsight} from './report.js';
import {parseTraceFile} from './traceFile.js';

/** A trace parsed by DevTools' engine, ready to be summarised and queried. */
export interface AnalyzedTrace {
  readonly parsedTrace: ParsedTrace;
  readonly bundle: TraceBundle;
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
    return NO_INSIGHTS;
  }
  const insightSet = parsedTrace.insights.get(insightSetId);
  if (!insightSet) {
    return NO_INSIGHT_SET;
  }
  const insight = Object.hasOwn(insightSet.model, insightName) ? insightSet.model[insightName] : undefined;
  if (!insight) {
    return noInsight(insightName);
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

/**
 * Everything performance_analyze_insight can answer from this trace, as text:
 * the summary for the page's device scope, and every insight for each scope
 * a page can have (a phone's text kept only when it differs; formatting all
 * of them takes milliseconds). The trace analysis process sends this back.
 */
export function traceReport(trace: AnalyzedTrace, summaryScope: DeviceScope): TraceReport {
  const insights = trace.parsedTrace.insights ? new Map<string, Map<string, InsightTexts>>() : null;
  for (const [id, names] of insightNames(trace)) {
    const texts = new Map<string, InsightTexts>();
    for (const name of names) {
      const desktop = formatInsight(trace, id, name, 'DESKTOP');
      const phone = formatInsight(trace, id, name, 'PHONE');
      texts.set(name, phone === desktop ? {DESKTOP: desktop} : {DESKTOP: desktop, PHONE: phone});
    }
    insights?.set(id, texts);
  }
  return {summary: formatTraceSummary(trace, summaryScope), insights};
}
