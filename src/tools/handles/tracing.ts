/** Performance traces (devtools/trace) for the handles: the server-wide tracer and a page's insights. */
import type {BrowserScope} from '../../browser/core/BrowserScope.js';
import type {Page} from '../../browser/core/Page.js';
import {deviceScopeOf, type StopResult, tracerFor} from '../../devtools/trace/PerformanceTracer.js';
import {insightText} from '../../devtools/trace/report.js';
import type {ProgressReporter} from '../../util/progress.js';
import type {ToolFiles, ToolTracing} from '../context.js';

/**
 * The server's performance trace, over the browser's tracer: one trace at a
 * time in the whole browser (Chrome traces browser-wide), which only the
 * session that started it may wait for or stop.
 */
export function tracingHandle(scope: BrowserScope, files: ToolFiles): ToolTracing {
  const tracer = () => {
    const t = tracerFor(scope.browser);
    if (t.running && t.owner !== scope.ownerId) {
      throw new Error(
        'The performance trace running now was started by another MCP session; only that session can stop it. Try again once it has finished.',
      );
    }
    return t;
  };
  return {
    get running() {
      return tracerFor(scope.browser).running;
    },
    waitForPageDone: progress => tracer().waitForPageDone(progress),
    stop: (filePath, progress): Promise<StopResult> => tracer().stop({filePath, files, progress}),
  };
}

/** Starts the browser's trace on `page` (reloading it when asked). */
export function startPageTrace(
  scope: BrowserScope,
  page: Page,
  options: {reload: boolean; ignoreCache: boolean},
  progress: ProgressReporter,
): Promise<void> {
  return tracerFor(scope.browser).start(page, {...options, progress});
}

/** One insight of the last trace, when this session took it. */
export function pageInsight(
  scope: BrowserScope,
  page: Page,
  insightSetId: string,
  insightName: string,
): string | undefined {
  const tracer = tracerFor(scope.browser);
  // Another session's trace is not this session's to read.
  const trace = tracer.owner === scope.ownerId ? tracer.lastTrace : undefined;
  return trace && insightText(trace, insightSetId, insightName, deviceScopeOf(page));
}
