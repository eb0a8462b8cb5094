/**
 * Reports a step of a long tool call (an MCP progress notification when the
 * client sent a progressToken; nothing otherwise). Never throws, never blocks.
 */
export type ProgressReporter = (message: string) => void;

export const NO_PROGRESS: ProgressReporter = () => {};

/**
 * What the running call hands down to the work it starts: the signal that
 * aborts when the client cancels (every wait should stop then) and the
 * progress reporter.
 */
export interface CallControl {
  readonly signal?: AbortSignal;
  readonly progress: ProgressReporter;
}

export const NO_CALL_CONTROL: CallControl = {progress: NO_PROGRESS};

/**
 * At most one report per `intervalMs`: the first goes out at once, later
 * ones within the interval are held and only the last of them is sent when
 * the interval ends. `end()` drops a held report (a finished call reports
 * nothing more).
 */
export function throttleProgress(
  send: (message: string) => void,
  intervalMs: number,
): {report: ProgressReporter; end: () => void} {
  let lastSent = -Infinity;
  let held: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let ended = false;
  const flush = () => {
    timer = undefined;
    if (held !== undefined && !ended) {
      const message = held;
      held = undefined;
      lastSent = Date.now();
      send(message);
    }
  };
  return {
    report(message) {
      if (ended) {
        return;
      }
      const wait = lastSent + intervalMs - Date.now();
      if (wait <= 0 && timer !== undefined) {
        // The interval is over but its timer has not run (a busy event
        // loop): the held report is that interval's last, so it goes now,
        // and this one opens the next interval.
        clearTimeout(timer);
        flush();
        held = message;
        timer = setTimeout(flush, intervalMs);
        timer.unref?.();
        return;
      }
      if (wait <= 0) {
        lastSent = Date.now();
        send(message);
        return;
      }
      held = message;
      timer ??= setTimeout(flush, wait);
      timer.unref?.();
    },
    end() {
      ended = true;
      held = undefined;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
