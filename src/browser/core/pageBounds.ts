/**
 * How long a tool call waits for a page that does not answer, before it ends
 * with an error that says what the page is doing (server/laneNotes.ts). A
 * page whose scripts never yield, that is paused in the debugger or that
 * produces no frame holds such a call until its bound; a client's
 * cancellation ends it at once whatever the bound.
 *
 * `--pageCallTimeout <seconds>` sets every one of them to the same value (a
 * deployment that would rather give up sooner; the end-to-end tests of hung
 * pages, which would otherwise wait out the full bounds); without it they are
 * DEFAULT_PAGE_BOUNDS.
 */
export interface PageBounds {
  /**
   * Work the page does for the call and that may legitimately take long: a
   * script run (`evaluate_script`) and a screenshot capture (Chrome answers
   * only once the renderer produced a frame; a huge full page takes tens of
   * seconds on a loaded machine).
   */
  readonly workMs: number;
  /**
   * A question the page's main thread answers in milliseconds (a snapshot's
   * first DOM count and its frame tree, a screenshot's layout size or element
   * box): it runs out only on a page whose scripts never yield.
   */
  readonly answerMs: number;
}

/** The bounds without --pageCallTimeout (the default CDP command bound for answers). */
export const DEFAULT_PAGE_BOUNDS: PageBounds = {workMs: 60_000, answerMs: 30_000};

/** The bounds --pageCallTimeout (seconds; undefined: not given) sets. */
export function pageBoundsFor(seconds: number | undefined): PageBounds {
  return seconds === undefined ? DEFAULT_PAGE_BOUNDS : {workMs: seconds * 1000, answerMs: seconds * 1000};
}

/** A bound as its error message names it: "60 s", "2.5 s". */
export function secondsText(ms: number): string {
  return `${ms / 1000} s`;
}
