import * as v from 'valibot';

import type {ResponseBuilder} from '../response/ResponseBuilder.js';
import {definePageTool, type ToolContext} from './defineTool.js';

const filePathEntry = {
  filePath: v.optional(v.pipe(v.string(), v.description('Save the raw trace (.json or .json.gz).'))),
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
  description: 'Trace the page (by default a reload, stopping when loaded); reports Core Web Vitals and insights.',
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
    reload: v.optional(v.pipe(v.boolean(), v.description('Trace a reload. Default true.')), true),
    autoStop: v.optional(
      v.pipe(v.boolean(), v.description('Stop when loaded. Default true; false: call performance_stop_trace.')),
      true,
    ),
    ignoreCache: v.optional(v.pipe(v.boolean(), v.description('Cold reload.'))),
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
  description: 'Stop the running trace and report it.',
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
  description: 'Details of one insight of the last trace: findings and estimated savings.',
  annotations: {category: 'performance', readOnlyHint: true},
  sections: ['traceInsight'],
  blockedByDialog: false,
  schema: {
    insightSetId: v.pipe(v.string(), v.description('From the trace summary, e.g. NAVIGATION_0.')),
    insightName: v.pipe(v.string(), v.description('e.g. LCPBreakdown.')),
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
