/** The screencast facet of a page handle: browser/recording. */
import type {Page} from '../../browser/core/Page.js';
import {startRecording, stopRecording} from '../../browser/recording/screencast.js';
import type {ToolScreencast} from '../context.js';

export function pageScreencast(page: Page): ToolScreencast {
  return {
    get filePath() {
      return page.recording?.filePath;
    },
    start: options => startRecording(page, options),
    stop: () => stopRecording(page),
  };
}
