/**
 * Server side of the trace analysis process (host.ts): one short-lived child
 * per trace, forked when the trace stops (DevTools' engine loads in it while
 * Chrome hands the trace over), sent the raw bytes on its stdin, and gone
 * before the call answers: the server keeps only the texts it sends back.
 * Every wait is bounded; a process that stops answering is killed; one that
 * cannot start, or dies, fails the analysis saying why and where its output
 * was logged. None outlives the server.
 */
import type * as childProcess from 'node:child_process';
import type {ChildProcess} from 'node:child_process';
import {createRequire} from 'node:module';

import {entryPath, errorLine} from '../../util/childEntry.js';
import {debug, logDestination, warn} from '../../util/logger.js';
import type {TraceHostConfig, TraceHostMessage, TraceReport} from './hostProtocol.js';

/** node:child_process is loaded on the first trace, not at the server's start. */
const requireBuiltin = createRequire(import.meta.url);

/** The process's file in build/ (next to this module), then in dist/ (scripts/bundle.mjs names it). */
export const TRACE_HOST_FILES = ['host.js', 'trace-host.js'] as const;

/** Loading the engine takes about a second; generous for a busy machine. */
const START_TIMEOUT_MS = 30_000;
/** Parsing takes about a second per MB of trace on a busy machine: a bound well above that. */
const ANALYSIS_BASE_MS = 60_000;
const ANALYSIS_MS_PER_MB = 2_000;
/** How long it may take to exit after answering before it is killed. */
const EXIT_GRACE_MS = 2_000;
/** How much of its stderr is kept (an error is at its end). */
const OUTPUT_TAIL_CHARS = 4_000;

export interface TraceAnalysisOptions {
  /** The process's entry script (tests); default: host.js, or dist/trace-host.js in the package. */
  entry?: string;
  startTimeoutMs?: number;
  /** Bound of the analysis once the trace is sent; default: by the trace's size. */
  timeoutMs?: number;
}

/** Processes still running, killed if the server exits first. */
const running = new Set<ChildProcess>();
let killOnExit = false;

/** The absolute path of the process's entry; throws, saying what is missing where, when neither exists. */
export function traceHostPath(): string {
  return entryPath(import.meta.url, TRACE_HOST_FILES, 'The trace analysis process');
}

/** One trace's analysis in its own process: `analyze` once, then `close` whatever happened. */
export class TraceAnalysis {
  readonly #child: ChildProcess | undefined;
  readonly #options: TraceAnalysisOptions;
  readonly #result: Promise<TraceReport>;
  #settle!: {resolve(report: TraceReport): void; reject(error: Error): void};
  #settled = false;
  #started = false;
  #output = '';
  /** It sent its answer (it exits by itself then). */
  #answered = false;
  /** The analysis bound, when the trace was sent before the process started. */
  #analysisMs: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  #gone: Promise<void> = Promise.resolve();

  /** Forks the process at once; a failure to fork is the analysis's error. */
  constructor(config: TraceHostConfig, options: TraceAnalysisOptions = {}) {
    this.#options = options;
    this.#result = new Promise<TraceReport>((resolve, reject) => (this.#settle = {resolve, reject}));
    // Failures before analyze() is called are its answer, not unhandled rejections.
    this.#result.catch(() => undefined);
    try {
      this.#child = this.#fork(config);
    } catch (error) {
      this.#fail(error instanceof Error ? error.message : String(error), false);
    }
  }

  /**
   * Sends the raw trace (one buffer, or its pieces in order: TraceRecording
   * reads it in pieces); resolves with DevTools' texts, rejects with why there
   * are none.
   */
  analyze(data: Buffer | readonly Buffer[]): Promise<TraceReport> {
    const child = this.#child;
    if (child && !this.#settled) {
      const pieces = Buffer.isBuffer(data) ? [data] : data;
      for (const piece of pieces) {
        child.stdin?.write(piece);
      }
      child.stdin?.end();
      const bytes = pieces.reduce((sum, piece) => sum + piece.length, 0);
      const timeoutMs = this.#options.timeoutMs ?? ANALYSIS_BASE_MS + Math.ceil(bytes / 2 ** 20) * ANALYSIS_MS_PER_MB;
      if (this.#started) {
        this.#bound(timeoutMs, 'finish');
      } else {
        // Still starting: the start bound runs on, then this one.
        this.#analysisMs = timeoutMs;
      }
    }
    return this.#result;
  }

  /** Stops the process if it still runs (killed when it has not answered) and waits until it is gone. */
  async close(): Promise<void> {
    const child = this.#child;
    clearTimeout(this.#timer);
    if (!this.#settled) {
      this.#fail('The trace analysis was abandoned.', false);
    }
    if (child && child.exitCode === null && child.signalCode === null) {
      const kill = setTimeout(() => child.kill('SIGKILL'), this.#answered ? EXIT_GRACE_MS : 0);
      await this.#gone;
      clearTimeout(kill);
    }
  }

  #fork(config: TraceHostConfig): ChildProcess {
    const entry = this.#options.entry ?? traceHostPath();
    const child = (requireBuiltin('node:child_process') as typeof childProcess).fork(entry, [JSON.stringify(config)], {
      serialization: 'advanced',
      // Never the server's stdout: it carries the MCP protocol. The trace goes in on stdin.
      stdio: ['pipe', 'pipe', 'pipe', 'ipc'],
      execArgv: [],
    });
    running.add(child);
    if (!killOnExit) {
      killOnExit = true;
      process.on('exit', () => running.forEach(c => c.kill('SIGKILL')));
    }
    this.#gone = new Promise<void>(resolve => {
      child.once('close', () => resolve());
      // Not forked at all: no 'close' follows.
      child.once('error', () => child.pid === undefined && resolve());
    }).finally(() => running.delete(child));
    // The process died before reading it all: its exit says why.
    child.stdin?.on('error', error => debug('trace host: the trace was not delivered', error.message));
    child.stdout?.on('data', (chunk: Buffer) => debug('trace host:', chunk.toString().trimEnd()));
    child.stderr?.on('data', (chunk: Buffer) => {
      this.#output = (this.#output + chunk.toString()).slice(-OUTPUT_TAIL_CHARS);
      debug('trace host:', chunk.toString().trimEnd());
    });
    child.on('message', (message: TraceHostMessage) => this.#onMessage(message));
    child.on('error', error => this.#stopped(`it could not run: ${error.message}`));
    // 'close', not 'exit': by then it has written all of its error.
    child.on('close', (code, signal) =>
      this.#stopped(signal ? `it was killed (${signal})` : `it exited (code ${code})`),
    );
    this.#bound(this.#options.startTimeoutMs ?? START_TIMEOUT_MS, 'start');
    return child;
  }

  #onMessage(message: TraceHostMessage): void {
    if ('started' in message) {
      this.#started = true;
      clearTimeout(this.#timer);
      if (this.#analysisMs !== undefined) {
        this.#bound(this.#analysisMs, 'finish');
      }
      return;
    }
    this.#answered = true;
    if (message.ok) {
      this.#succeed(message.report);
    } else {
      this.#fail(message.message, false);
    }
  }

  /** Kills the process when it has not started, or not finished, within `ms`. */
  #bound(ms: number, what: 'start' | 'finish'): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#child?.kill('SIGKILL');
      const within = `within ${Math.round(ms / 1000)} s`;
      this.#fail(
        what === 'start'
          ? `The trace analysis process could not start: it did not answer ${within}.`
          : `The trace analysis process did not finish ${within} and was stopped.`,
      );
    }, ms);
  }

  #stopped(how: string): void {
    if (this.#settled) {
      return;
    }
    const error = errorLine(this.#output.trim());
    this.#fail(
      this.#started
        ? `The trace analysis process stopped (${how}) before it finished, probably out of memory.`
        : `The trace analysis process could not start: ${how}${error ? ` (${error})` : ''}.`,
    );
  }

  #succeed(report: TraceReport): void {
    if (!this.#settled) {
      this.#settled = true;
      clearTimeout(this.#timer);
      this.#settle.resolve(report);
    }
  }

  /**
   * Fails the analysis. A failure of the process itself is logged with its
   * output, and its message says where; DevTools' own errors (a trace it
   * cannot parse) are the reference's messages, as they are.
   */
  #fail(message: string, ofTheProcess = true): void {
    if (this.#settled) {
      return;
    }
    this.#settled = true;
    clearTimeout(this.#timer);
    if (ofTheProcess) {
      const output = this.#output.trim();
      warn(`${message}${output ? ` Its output:\n${output}` : ''}`);
    }
    this.#settle.reject(new Error(ofTheProcess ? `${message} Its output is in ${logDestination()}.` : message));
  }
}
