import type {CdpSession} from '../../cdp/CdpConnection.js';
import {CdpProtocolError} from '../../cdp/errors.js';
import {withTimeout} from '../../util/async.js';
import {debug} from '../../util/logger.js';
import type {Page} from '../core/Page.js';
import {RECORDING_COMMAND_TIMEOUT_MS, RECORDING_FINISH_TIMEOUT_MS, type ScreenRecorder} from './ScreenRecorder.js';

/** The page's viewport in device pixels: Chrome downscales recordings to a small size unless told. */
export async function viewportPixelSize(session: CdpSession): Promise<{maxWidth: number; maxHeight: number}> {
  const {result, exceptionDetails} = await session.send(
    'Runtime.evaluate',
    {expression: '[innerWidth, innerHeight, devicePixelRatio]', returnByValue: true},
    session.answerBound(RECORDING_COMMAND_TIMEOUT_MS),
  );
  const [width = 0, height = 0, dpr = 1] = exceptionDetails ? [] : (result.value as number[]);
  return {maxWidth: Math.max(1, Math.round(width * dpr)), maxHeight: Math.max(1, Math.round(height * dpr))};
}

/** Whether an mp4 holds media: a top-level `mdat` box with content (an empty recording is only its header). */
export function hasMediaData(mp4: Uint8Array): boolean {
  const view = new DataView(mp4.buffer, mp4.byteOffset, mp4.byteLength);
  for (let at = 0; at + 8 <= mp4.byteLength;) {
    let size = view.getUint32(at);
    const type = String.fromCharCode(mp4[at + 4]!, mp4[at + 5]!, mp4[at + 6]!, mp4[at + 7]!);
    let header = 8;
    if (size === 1 && at + 16 <= mp4.byteLength) {
      size = Number(view.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) {
      size = mp4.byteLength - at;
    }
    if (type === 'mdat' && size > header) {
      return true;
    }
    if (size < header) {
      return false;
    }
    at += size;
  }
  return false;
}

/**
 * Chrome's own recorder (Page.startScreenRecording): Chrome encodes the tab
 * to mp4 while it records and hands the file over as an IO stream at stop.
 */
export class ChromeScreenRecorder implements ScreenRecorder {
  readonly kind = 'chrome';
  #done = false;

  private constructor(
    readonly filePath: string,
    readonly session: CdpSession,
    readonly stream: string,
  ) {}

  static async start(page: Page, options: {filePath: string; fps?: number}): Promise<ChromeScreenRecorder> {
    const session = page.session;
    const size = await viewportPixelSize(session);
    let stream: string;
    try {
      ({stream} = await session.send(
        'Page.startScreenRecording',
        {...size, ...(options.fps ? {frameRate: options.fps} : {})},
        session.answerBound(RECORDING_COMMAND_TIMEOUT_MS),
      ));
    } catch (error) {
      if (error instanceof CdpProtocolError) {
        throw new Error(
          `The connected Chrome does not support screen recording (${error.protocolMessage}). Update Chrome to a newer version.`,
          {cause: error},
        );
      }
      throw error;
    }
    return new ChromeScreenRecorder(options.filePath, session, stream);
  }

  async stop(): Promise<Uint8Array> {
    if (this.#done) {
      throw new Error('This screencast recording has already ended.');
    }
    this.#done = true;
    const s = this.session;
    try {
      // Chrome answers with the same stream, now complete; a failure here
      // (recording already ended) still leaves the stream worth reading.
      await s.send('Page.stopScreenRecording', {}, RECORDING_COMMAND_TIMEOUT_MS).catch((error: unknown) => {
        debug('Page.stopScreenRecording failed', error);
      });
      const video = await withTimeout(
        this.#read(),
        RECORDING_FINISH_TIMEOUT_MS,
        `Reading the recording from Chrome did not finish within ${RECORDING_FINISH_TIMEOUT_MS / 1000} s; nothing was saved.`,
      );
      if (!hasMediaData(video)) {
        throw new Error(
          'The recording holds no frames, so nothing was saved: Chrome starts capturing a moment after screencast_start answers, and the page drew nothing it captured before screencast_stop. Record for longer (a second or more), while the page changes.',
        );
      }
      return video;
    } finally {
      await s.trySend('IO.close', {handle: this.stream}, RECORDING_COMMAND_TIMEOUT_MS);
    }
  }

  abandon(): void {
    if (this.#done) {
      return;
    }
    this.#done = true;
    // The stream dies with the tab; if the session still works, stop and free it.
    void this.session
      .trySend('Page.stopScreenRecording', {}, RECORDING_COMMAND_TIMEOUT_MS)
      .then(() => this.session.trySend('IO.close', {handle: this.stream}, RECORDING_COMMAND_TIMEOUT_MS));
  }

  async #read(): Promise<Uint8Array> {
    const chunks: Buffer[] = [];
    for (;;) {
      const {data, base64Encoded, eof} = await this.session.send(
        'IO.read',
        {handle: this.stream},
        RECORDING_COMMAND_TIMEOUT_MS,
      );
      if (data) {
        chunks.push(Buffer.from(data, base64Encoded ? 'base64' : 'utf8'));
      }
      if (eof) {
        return Buffer.concat(chunks);
      }
    }
  }
}
