import {promisify} from 'node:util';

import type {Browser} from '../../browser/core/Browser.js';
import {navigate} from '../../browser/core/navigation.js';
import type {Page} from '../../browser/core/Page.js';
import {errorMessage} from '../../util/async.js';
import {NO_PROGRESS, type ProgressReporter} from '../../util/progress.js';
import {traceCategories} from './categories.js';
import type {TraceReport} from './hostProtocol.js';
import {waitForPageDone} from './pageDone.js';
import {TraceRecording} from './recorder.js';
import {TraceAnalysis} from './TraceHost.js';

/** node:zlib is loaded when a trace is saved gzipped, not at the server's start. */
const gzipAsync = async (data: Uint8Array | string) => promisify((await import('node:zlib')).gzip)(data);

export interface StartOptions {
  reload: boolean;
  ignoreCache: boolean;
  progress?: ProgressReporter;
}

export interface StopOptions {
  /** Sandbox-checked path for the raw trace (.json, or gzipped when it ends in .gz). */
  filePath?: string;
  /** Writes through the path sandbox with the extension forced; returns the path written. */
  files: {save(data: Uint8Array | string, path: string, ext: string): Promise<string>};
  progress?: ProgressReporter;
}

export interface StopResult {
  /** Lines to print before the summary (saved file, "stopped"). */
  lines: string[];
  /** The trace summary; absent when DevTools could not parse the trace. */
  summary?: string;
  /** Why the trace could not be parsed (the reference's message). */
  parseError?: string;
}

/** The device scope DevTools filters field data by: the page's emulated form factor. */
export function deviceScopeOf(page: Page): 'DESKTOP' | 'PHONE' {
  return page.emulation.viewport?.isMobile ? 'PHONE' : 'DESKTOP';
}

/**
 * One performance trace at a time for the whole server (as the reference),
 * and the last one recorded, which performance_analyze_insight reads: as
 * DevTools' texts only, computed in a process of their own (TraceHost.ts).
 */
export class PerformanceTracer {
  #active: {page: Page; recording: TraceRecording | undefined} | undefined;
  #last: TraceReport | undefined;
  /** The MCP session (page owner) whose page the running, or else the last, trace recorded. */
  #owner: number | undefined;

  get running(): boolean {
    return this.#active !== undefined;
  }

  /** Owner id of the traced page (sessions only see their own traces). */
  get owner(): number | undefined {
    return this.#owner;
  }

  get lastTrace(): TraceReport | undefined {
    return this.#last;
  }

  /**
   * Starts recording on `page`. With reload, the page goes to about:blank
   * first (a clean start), and comes back to its URL once tracing runs.
   * On any failure tracing is ended and the server can trace again.
   */
  async start(page: Page, options: StartOptions): Promise<void> {
    if (this.#active) {
      throw new Error('A performance trace is already running.');
    }
    const progress = options.progress ?? NO_PROGRESS;
    const active: {page: Page; recording: TraceRecording | undefined} = {page, recording: undefined};
    this.#active = active;
    if (this.#owner !== page.ownerId) {
      // Another session's last trace is not for this one to read.
      this.#last = undefined;
      this.#owner = page.ownerId;
    }
    const url = page.url;
    try {
      const categories = traceCategories();
      if (options.reload) {
        progress('Opening about:blank before the reload');
        const blank = await navigate(page, 'about:blank', {});
        if (blank.error) {
          throw new Error(`Could not open about:blank before the trace: ${blank.error}`);
        }
      }
      active.recording = await TraceRecording.start(page.session, categories);
      progress('Tracing started');
      if (options.reload) {
        progress(`Loading ${url}`);
        if (options.ignoreCache) {
          await page.session.send('Network.setCacheDisabled', {cacheDisabled: true});
        }
        try {
          const loaded = await navigate(page, url, {});
          if (loaded.error) {
            throw new Error(`Could not reload ${url} for the trace: ${loaded.error}`);
          }
        } finally {
          if (options.ignoreCache) {
            await page.session.trySend('Network.setCacheDisabled', {cacheDisabled: false});
          }
        }
      }
    } catch (error) {
      this.#active = undefined;
      await active.recording?.abandon();
      throw error;
    }
  }

  /** Waits until the page is done loading (bounded), for an auto-stopped trace. */
  async waitForPageDone(progress: ProgressReporter = NO_PROGRESS): Promise<void> {
    const page = this.#active?.page;
    if (page) {
      progress('Waiting for the page to settle');
      await waitForPageDone(page);
    }
  }

  /**
   * Stops the running trace, saves it when asked, has DevTools' engine parse
   * it (in the trace analysis process, started now so that its code loads
   * while Chrome hands the trace over) and keeps its texts for
   * performance_analyze_insight. The process is gone when this returns, and
   * the server can trace again whatever happened.
   */
  async stop(options: StopOptions): Promise<StopResult> {
    const active = this.#active;
    const recording = active?.recording;
    if (!active || !recording) {
      throw new Error('No performance trace is running.');
    }
    const progress = options.progress ?? NO_PROGRESS;
    const lines: string[] = [];
    const {page} = active;
    const analysis = new TraceAnalysis({
      conditions: {
        cpuThrottling: page.emulation.cpuThrottlingRate ?? 1,
        networkThrottling: page.emulation.networkConditions,
      },
      summaryScope: deviceScopeOf(page),
    });
    try {
      progress('Stopping the trace');
      const data = await recording.stop();
      const bytes = data.reduce((sum, piece) => sum + piece.length, 0);
      progress(`Read the trace (${(bytes / 1024 / 1024).toFixed(1)} MB)`);
      if (options.filePath) {
        const gzipped = options.filePath.endsWith('.gz');
        const whole = Buffer.concat(data, bytes);
        const saved = await options.files.save(
          gzipped ? await gzipAsync(whole) : whole,
          options.filePath,
          gzipped ? '.gz' : '.json',
        );
        lines.push(`The raw trace data was saved to ${saved}.`);
      }
      progress('Analyzing the trace');
      let report: TraceReport;
      try {
        report = await analysis.analyze(data);
      } catch (error) {
        return {lines: [...lines, 'The performance trace has been stopped.'], parseError: errorMessage(error)};
      }
      lines.push('The performance trace has been stopped.');
      this.#last = report;
      return {lines, summary: report.summary};
    } finally {
      this.#active = undefined;
      await analysis.close();
    }
  }
}

declare module '../../browser/core/Browser.js' {
  interface BrowserSlots {
    tracer?: PerformanceTracer;
  }
}

/** The tracer of a browser connection (a reconnect starts afresh, as page ids do). */
export function tracerFor(browser: Browser): PerformanceTracer {
  return (browser.slots.tracer ??= new PerformanceTracer());
}
