import type {Page} from '../core/Page.js';
import {ChromeScreenRecorder} from './chromeRecorder.js';
import {FfmpegScreenRecorder, type VideoContainer} from './ffmpegRecorder.js';

export interface RecordingOptions {
  /** Where the video goes (already checked against the sandbox). */
  filePath: string;
  /** Frame rate (Chrome's maximum, or ffmpeg's constant rate). */
  fps?: number;
  /** Use the legacy recorder: frames piped to this ffmpeg. */
  ffmpeg?: {container: VideoContainer; path?: string};
}

/** Starts the page's recording; throws (leaving nothing running) when it cannot start. */
export async function startRecording(page: Page, options: RecordingOptions): Promise<void> {
  if (page.recording) {
    throw new Error(
      'a screencast recording is already in progress. Use screencast_stop to stop it before starting a new one.',
    );
  }
  page.recording = options.ffmpeg
    ? await FfmpegScreenRecorder.start(page, {
        filePath: options.filePath,
        container: options.ffmpeg.container,
        fps: options.fps,
        ffmpegPath: options.ffmpeg.path,
      })
    : await ChromeScreenRecorder.start(page, {filePath: options.filePath, fps: options.fps});
}

/** Stops the page's recording and returns the video; the page has no recording afterwards, even on failure. */
export async function stopRecording(page: Page): Promise<{filePath: string; data: Uint8Array}> {
  const recording = page.recording;
  if (!recording) {
    throw new Error('no active screencast recording to stop.');
  }
  page.recording = undefined;
  return {filePath: recording.filePath, data: await recording.stop()};
}
