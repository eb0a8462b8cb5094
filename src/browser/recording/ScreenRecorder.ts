/** Which recorder a page uses: Chrome's own (mp4, no dependencies) or frames piped to ffmpeg (legacy). */
export type RecorderKind = 'chrome' | 'ffmpeg';

/** A recording in progress on one page. */
export interface ScreenRecorder {
  readonly kind: RecorderKind;
  /** Where the video will be saved (sandbox-checked, extension already forced). */
  readonly filePath: string;
  /** Stops recording and returns the encoded video. Always leaves nothing running. */
  stop(): Promise<Uint8Array>;
  /** Ends the recording without output (its page went away); releases everything. */
  abandon(): void;
}

/** Bound of each CDP command a recorder sends. */
export const RECORDING_COMMAND_TIMEOUT_MS = 10_000;
/** Bound of reading or encoding the whole video at stop. */
export const RECORDING_FINISH_TIMEOUT_MS = 60_000;
