import type {CdpSession} from '../../cdp/CdpConnection.js';
import {TargetClosedError} from '../../cdp/errors.js';
import {TimeoutError, withTimeout} from '../../util/async.js';
import {debug} from '../../util/logger.js';
import {bytePieces} from '../../util/pieces.js';

/** Bound of Tracing.start. */
const TRACE_START_TIMEOUT_MS = 10_000;
/** Bound from Tracing.end until Chrome hands over the stream (it flushes every process first). */
const TRACE_END_TIMEOUT_MS = 30_000;
/** Bound of reading the whole stream. */
const TRACE_READ_TIMEOUT_MS = 120_000;
/** Bound of one IO.read. */
const IO_READ_TIMEOUT_MS = 30_000;
/**
 * Size asked of each IO.read. Each answer is held several times over while it
 * is read (the pipe's bytes, their text, the parsed message, the decoded
 * chunk): at 4 MB that was some 20 MB of garbage at once, the server's peak
 * memory; at 1 MB a trace of 10 MB takes 10 round trips instead of 3, under
 * a millisecond each beside a trace of seconds.
 */
const IO_READ_CHUNK_BYTES = 1024 * 1024;
/** Traces past this are refused rather than exhausting the server's memory. */
export const MAX_TRACE_BYTES = 1024 * 1024 * 1024;

const PAGE_CLOSED = 'The page closed while the trace was being recorded; the trace is lost. Start a new one.';

/**
 * One Tracing session on a page target, streamed back through IO.read.
 * Categories prefixed with "-" are excluded (as Puppeteer and DevTools spell them).
 */
export class TraceRecording {
  #complete: Promise<string> | undefined;
  #stopped = false;

  private constructor(readonly session: CdpSession) {}

  static async start(session: CdpSession, categories: readonly string[]): Promise<TraceRecording> {
    const recording = new TraceRecording(session);
    const excludedCategories = categories.filter(c => c.startsWith('-')).map(c => c.slice(1));
    const includedCategories = categories.filter(c => !c.startsWith('-'));
    await session.send(
      'Tracing.start',
      {transferMode: 'ReturnAsStream', streamFormat: 'json', traceConfig: {includedCategories, excludedCategories}},
      session.answerBound(TRACE_START_TIMEOUT_MS),
    );
    return recording;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  /**
   * Ends tracing and returns the raw trace (JSON bytes) in pieces of under
   * 128 KB, never one buffer of its size: the C allocator would keep up to
   * twice that size of freed memory for good after it (util/pieces.ts).
   */
  async stop(): Promise<Buffer[]> {
    const handle = await this.#end();
    return this.#read(handle);
  }

  /** Ends tracing and drops the data (error paths). Never throws. */
  async abandon(): Promise<void> {
    try {
      const handle = await this.#end();
      await this.session.trySend('IO.close', {handle});
    } catch (error) {
      debug('abandoning the trace failed (ignored)', error);
    }
  }

  #end(): Promise<string> {
    if (!this.#complete) {
      this.#stopped = true;
      const unsubscribe: Array<() => void> = [];
      const complete = new Promise<string>((resolve, reject) => {
        unsubscribe.push(
          this.session.on('Tracing.tracingComplete', ({stream}) =>
            stream ? resolve(stream) : reject(new Error('Chrome finished the trace without returning its data.')),
          ),
          this.session.onDetached(() => reject(new Error(PAGE_CLOSED))),
        );
      });
      const ended = this.session.send('Tracing.end', {}, TRACE_END_TIMEOUT_MS).catch((error: unknown) => {
        throw this.session.detached ||
          error instanceof TargetClosedError ||
          /session with given id not found/i.test(String(error))
          ? new Error(PAGE_CLOSED)
          : error;
      });
      this.#complete = withTimeout(
        ended.then(() => complete),
        TRACE_END_TIMEOUT_MS,
        `Chrome did not finish the trace within ${TRACE_END_TIMEOUT_MS / 1000} s of stopping it.`,
      ).finally(() => unsubscribe.forEach(off => off()));
    }
    return this.#complete;
  }

  async #read(handle: string): Promise<Buffer[]> {
    const chunks: Buffer[] = [];
    let total = 0;
    const deadline = Date.now() + TRACE_READ_TIMEOUT_MS;
    try {
      for (;;) {
        if (Date.now() > deadline) {
          throw new TimeoutError(`Reading the trace from Chrome took over ${TRACE_READ_TIMEOUT_MS / 1000} s.`);
        }
        const {data, base64Encoded, eof} = await this.session.send(
          'IO.read',
          {handle, size: IO_READ_CHUNK_BYTES},
          IO_READ_TIMEOUT_MS,
        );
        for (const piece of bytePieces(data, base64Encoded === true)) {
          total += piece.length;
          chunks.push(piece);
        }
        if (total > MAX_TRACE_BYTES) {
          throw new Error(
            `The trace is larger than ${MAX_TRACE_BYTES / 1024 / 1024} MB; record a shorter one (reload=true with autoStop, or stop sooner).`,
          );
        }
        if (eof) {
          break;
        }
      }
    } finally {
      await this.session.trySend('IO.close', {handle});
    }
    return chunks;
  }
}
