import type {ChildProcessWithoutNullStreams} from 'node:child_process';
import {cpus} from 'node:os';

import type {CdpSession} from '../../cdp/CdpConnection.js';
import {deferred, withTimeout} from '../../util/async.js';
import {debug} from '../../util/logger.js';
import type {Page} from '../core/Page.js';
import {viewportPixelSize} from './chromeRecorder.js';
import {RECORDING_COMMAND_TIMEOUT_MS, RECORDING_FINISH_TIMEOUT_MS, type ScreenRecorder} from './ScreenRecorder.js';

export type VideoContainer = 'mp4' | 'webm';

/** Frame rate of the encoded video when --screencastFps is not given. */
export const DEFAULT_FFMPEG_FPS = 30;
/** VP9 constant quality (lower is better). */
const VP9_CRF = 30;
/** Bound of ffmpeg starting (or failing to). */
const FFMPEG_SPAWN_TIMEOUT_MS = 5_000;

export const FFMPEG_MISSING =
  'ffmpeg is required for screencast recording but was not found. Install ffmpeg (https://ffmpeg.org/) and ensure it is available in your PATH.';

/** ffmpeg reading PNG frames on stdin at `fps` and writing VP9 in `container` to stdout. */
export function ffmpegArguments(options: {
  container: VideoContainer;
  fps: number;
  width: number;
  height: number;
}): string[] {
  const {container, fps, width, height} = options;
  return [
    ...['-loglevel', 'error'],
    // Start encoding at once instead of probing the input first.
    ...['-avioflags', 'direct', '-fpsprobesize', '0', '-probesize', '32', '-analyzeduration', '0'],
    ...['-fflags', 'nobuffer'],
    ...['-framerate', String(fps), '-f', 'image2pipe', '-vcodec', 'png', '-i', 'pipe:0'],
    '-an',
    // One thread keeps a busy machine responsive; realtime trades size for speed.
    ...['-threads', '1', '-b:v', '0', '-vcodec', 'vp9', '-crf', String(VP9_CRF)],
    ...['-deadline', 'realtime', '-cpu-used', String(Math.min(Math.max(1, Math.floor(cpus().length / 2)), 8))],
    // A fragmented mp4 can be written to a pipe (no seeking back to the header).
    ...(container === 'mp4' ? ['-movflags', 'hybrid_fragmented', '-f', 'mp4'] : ['-f', 'webm']),
    // Frames change size with the viewport: crop and pad them to the first size.
    ...['-vf', `crop='min(${width},iw):min(${height},ih):0:0',pad=${width}:${height}:0:0`],
    'pipe:1',
  ];
}

/**
 * The legacy recorder (--experimentalScreencast): the tab's frames
 * (Page.startScreencast, PNG) are re-timed to a constant frame rate and piped
 * into an ffmpeg process, whose output is the video.
 */
export class FfmpegScreenRecorder implements ScreenRecorder {
  readonly kind = 'ffmpeg';
  readonly #output: Buffer[] = [];
  readonly #exited = deferred<number | null>();
  #stderr = '';
  #off: () => void = () => {};
  #done = false;
  /** The last frame, its timestamp (s) and when it arrived (ms); repeated until the next one. */
  #last: {png: Buffer; timestamp: number; arrivedAt: number} | undefined;
  #start: number | undefined;
  /** When we asked Chrome for frames (ms, our clock). */
  #startedAt = 0;
  #written = 0;

  private constructor(
    readonly filePath: string,
    readonly session: CdpSession,
    readonly process: ChildProcessWithoutNullStreams,
    readonly fps: number,
  ) {
    process.stdout.on('data', (chunk: Buffer) => this.#output.push(chunk));
    process.stderr.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString()).slice(-2_000);
    });
    process.on('exit', code => this.#exited.resolve(code));
    // ffmpeg quitting early makes writes fail; the exit code reports it at stop.
    process.stdin.on('error', error => debug('ffmpeg stdin', error.message));
  }

  static async start(
    page: Page,
    options: {filePath: string; container: VideoContainer; fps?: number; ffmpegPath?: string},
  ): Promise<FfmpegScreenRecorder> {
    const session = page.session;
    const {maxWidth, maxHeight} = await viewportPixelSize(session);
    const fps = options.fps ?? DEFAULT_FFMPEG_FPS;
    const args = ffmpegArguments({container: options.container, fps, width: maxWidth, height: maxHeight});
    // Loaded here, not at the server's start (few sessions record).
    const {spawn} = await import('node:child_process');
    const child = spawn(options.ffmpegPath ?? 'ffmpeg', args, {stdio: ['pipe', 'pipe', 'pipe']});
    await withTimeout(
      new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', (error: NodeJS.ErrnoException) =>
          reject(error.code === 'ENOENT' || error.code === 'EACCES' ? new Error(FFMPEG_MISSING) : error),
        );
      }),
      FFMPEG_SPAWN_TIMEOUT_MS,
      `ffmpeg did not start within ${FFMPEG_SPAWN_TIMEOUT_MS / 1000} s.`,
    ).catch((error: unknown) => {
      child.kill('SIGKILL');
      throw error;
    });
    const recorder = new FfmpegScreenRecorder(options.filePath, session, child, fps);
    recorder.#off = session.on('Page.screencastFrame', ({data, metadata, sessionId}) => {
      void session.trySend('Page.screencastFrameAck', {sessionId}, RECORDING_COMMAND_TIMEOUT_MS);
      if (metadata.timestamp !== undefined) {
        recorder.#onFrame(Buffer.from(data, 'base64'), metadata.timestamp);
      }
    });
    try {
      recorder.#startedAt = Date.now();
      await session.send('Page.startScreencast', {format: 'png'}, RECORDING_COMMAND_TIMEOUT_MS);
    } catch (error) {
      recorder.abandon();
      throw error;
    }
    return recorder;
  }

  async stop(): Promise<Uint8Array> {
    if (this.#done) {
      throw new Error('This screencast recording has already ended.');
    }
    this.#done = true;
    this.#off();
    await this.session.trySend('Page.stopScreencast', {}, RECORDING_COMMAND_TIMEOUT_MS);
    try {
      if (this.#last) {
        // Hold the last frame until now (at least once), then let ffmpeg finish.
        this.#write(this.#last.png, Math.max(1, this.#wallFrames() - this.#written));
      }
      this.process.stdin.end();
      const code = await withTimeout(
        this.#exited.promise,
        RECORDING_FINISH_TIMEOUT_MS,
        `ffmpeg did not finish encoding within ${RECORDING_FINISH_TIMEOUT_MS / 1000} s; nothing was saved.`,
      );
      if (code !== 0) {
        throw new Error(`ffmpeg failed (exit code ${code}): ${this.#stderr.trim() || 'no error output'}`);
      }
      if (this.#written === 0) {
        throw new Error('The page produced no frames to record; nothing was saved.');
      }
      return Buffer.concat(this.#output);
    } finally {
      this.process.kill('SIGKILL');
    }
  }

  abandon(): void {
    if (this.#done) {
      return;
    }
    this.#done = true;
    this.#off();
    this.process.kill('SIGKILL');
    void this.session.trySend('Page.stopScreencast', {}, RECORDING_COMMAND_TIMEOUT_MS);
  }

  /**
   * Writes the previous frame as often as the time until this one spans at
   * the constant rate. The video starts when the recording did: Chrome's first
   * frame is the page's last drawn one, which on a page that draws seldom is
   * older than the recording. Its time on Chrome's clock comes from the second
   * frame (Chrome's clock and ours may differ): that frame came
   * `now - startedAt` after the start, less its delivery, so the start is at
   * most that long before it.
   */
  #onFrame(png: Buffer, timestamp: number): void {
    if (this.#last) {
      const start = (this.#start ??= Math.max(this.#last.timestamp, timestamp - (Date.now() - this.#startedAt) / 1000));
      const from = Math.max(this.#last.timestamp, start);
      const frames = Math.round((timestamp - start) * this.fps) - Math.round((from - start) * this.fps);
      // Never ahead of the time recorded so far on our clock: Chrome's frame
      // times may run ahead of it on a starved machine, and the video would
      // come out longer than the recording.
      this.#write(this.#last.png, Math.max(0, Math.min(frames, this.#wallFrames() - this.#written)));
    }
    this.#last = {png, timestamp, arrivedAt: Date.now()};
  }

  /** How many frames the time since the recording started spans at the constant rate. */
  #wallFrames(): number {
    return Math.round(((Date.now() - this.#startedAt) / 1000) * this.fps);
  }

  #write(png: Buffer, times: number): void {
    if (this.process.stdin.writableEnded) {
      return;
    }
    for (let i = 0; i < times; i++) {
      this.process.stdin.write(png);
    }
    this.#written += times;
  }
}
