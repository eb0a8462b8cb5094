/**
 * Errors that quote the web page: a script's exception, a dialog's message,
 * the element covering a target, an element's role and name. With
 * --untrustedContentMarkers such an error is marked as page content; the
 * server's own errors (a stale uid, a timeout, a refused call) stay outside
 * the block. Where page text enters an error, the error is made a
 * PageQuoteError (or wraps one as its cause).
 */
export class PageQuoteError extends Error {
  override name = 'PageQuoteError';
}

/** How deep quotesPage looks into causes. */
const MAX_CAUSES = 8;

/** Whether `error` or an error it was made from (its cause chain) quotes the page. */
export function quotesPage(error: unknown): boolean {
  let current = error;
  for (let depth = 0; current instanceof Error && depth < MAX_CAUSES; depth++) {
    if (current instanceof PageQuoteError) {
      return true;
    }
    current = current.cause;
  }
  return false;
}
