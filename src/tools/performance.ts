import * as v from 'valibot';

import type {ResponseBuilder} from '../response/ResponseBuilder.js';
import {definePageTool, type ToolContext} from './defineTool.js';

const filePathEntry = {
  filePath: v.optional(
    v.pipe(
      v.string(),
      v.description(
        'Save the raw trace to this file: ending in .gz it is gzipped (trace.json.gz), else saved as .json (trace.json).',
      ),
    ),
  ),
};

async function stopAndReport(
  response: ResponseBuilder<'traceSummary'>,
  context: ToolContext,
  filePath?: string,
): Promise<void> {
  const result = await context.tracing.stop(filePath, context.progress);
  response.line(...result.lines);
  if (result.parseError) {
    throw new Error(result.parseError);
  }
  response.section('traceSummary', [result.summary ?? '']);
}

export const performanceStartTrace = definePageTool({
  name: 'performance_start_trace',
  title: 'Start performance trace',
  // Chrome records one trace at a time for the whole browser, and the recording
  // (and its reload) is meant to measure this page alone: nothing else runs meanwhile.
  browserWide: 'a performance trace (Chrome traces browser-wide, one at a time)',
  description:
    'Record a performance trace of the page, by default of a fresh reload that stops by itself once the page is done, then list the Core Web Vitals (LCP, INP, CLS) and the insights DevTools found. Open the page with navigate_page first. Read an insight with performance_analyze_insight.',
  annotations: {
    category: 'performance',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  sections: ['traceSummary'],
  blockedByDialog: true,
  filePaths: ['filePath'],
  schema: {
    reload: v.optional(
      v.pipe(v.boolean(), v.description('Reload the page once tracing runs, to record its load. Default is true.')),
      true,
    ),
    autoStop: v.optional(
      v.pipe(
        v.boolean(),
        v.description(
          'Stop by itself once the page is done loading and report. Default is true; with false, call performance_stop_trace.',
        ),
      ),
      true,
    ),
    ignoreCache: v.optional(
      v.pipe(v.boolean(), v.description('Bypass the HTTP cache for the reload (a cold load). Only with reload.')),
    ),
    ...filePathEntry,
  },
  async handler({params, page}, response, context) {
    if (context.tracing.running) {
      response.line(
        'Error: a performance trace is already running. Use performance_stop_trace to stop it. Only one trace can be running at any given time.',
      );
      return;
    }
    await page.startTrace({reload: params.reload, ignoreCache: params.ignoreCache ?? false}, context.progress);
    if (!params.autoStop) {
      response.line('The performance trace is being recorded. Use performance_stop_trace to stop it.');
      return;
    }
    await context.tracing.waitForPageDone(context.progress);
    await stopAndReport(response, context, params.filePath);
  },
});

export const performanceStopTrace = definePageTool({
  name: 'performance_stop_trace',
  title: 'Stop performance trace',
  // Ends the browser-wide recording the start call began.
  browserWide: 'a performance trace (Chrome traces browser-wide, one at a time)',
  description:
    'Stop the performance trace started with performance_start_trace (autoStop=false) and report its Core Web Vitals and insights.',
  annotations: {
    category: 'performance',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  sections: ['traceSummary'],
  blockedByDialog: true,
  filePaths: ['filePath'],
  schema: {...filePathEntry},
  async handler({params}, response, context) {
    if (!context.tracing.running) {
      response.line('Error: no active performance trace recording to stop.');
      return;
    }
    await stopAndReport(response, context, params.filePath);
  },
});

export const performanceAnalyzeInsight = definePageTool({
  name: 'performance_analyze_insight',
  title: 'Analyze performance insight',
  description:
    'Explain one insight of the last performance trace in detail: what it measures, what was found (requests, elements, timings) and the estimated savings.',
  annotations: {category: 'performance', readOnlyHint: true},
  sections: ['traceInsight'],
  blockedByDialog: false,
  schema: {
    insightSetId: v.pipe(
      v.string(),
      v.description('Insight set id from the trace summary\'s "Available insight sets", e.g. NAVIGATION_0.'),
    ),
    insightName: v.pipe(
      v.string(),
      v.description('Insight name from that set\'s "Available insights", e.g. LCPBreakdown or RenderBlocking.'),
    ),
  },
  async handler({params, page}, response) {
    const insight = page.analyzeInsight(params.insightSetId, params.insightName);
    if (insight === undefined) {
      response.line('No recorded traces found. Record a performance trace so you have Insights to analyze.');
      return;
    }
    response.section('traceInsight', [insight]);
  },
});
