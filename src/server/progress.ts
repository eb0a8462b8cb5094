import type {ServerNotification} from '@modelcontextprotocol/sdk/types.js';

import {debug} from '../util/logger.js';
import {NO_PROGRESS, type ProgressReporter, throttleProgress} from '../util/progress.js';

/** The fastest a call reports progress; steps in between are folded into the latest. */
export const PROGRESS_INTERVAL_MS = 500;

/**
 * Progress notifications for one call, when the client sent a progressToken:
 * numbered steps (MCP wants progress to increase), at most one per
 * PROGRESS_INTERVAL_MS, never blocking or failing the call. `end()` when the
 * call is answered: nothing is reported after the result.
 */
export function callProgress(
  token: string | number | undefined,
  send: (notification: ServerNotification) => Promise<void>,
): {report: ProgressReporter; end: () => void} {
  if (token === undefined) {
    return {report: NO_PROGRESS, end: () => {}};
  }
  let step = 0;
  return throttleProgress(message => {
    step++;
    send({method: 'notifications/progress', params: {progressToken: token, progress: step, message}}).catch(
      (error: unknown) => debug('progress notification failed', error),
    );
  }, PROGRESS_INTERVAL_MS);
}
