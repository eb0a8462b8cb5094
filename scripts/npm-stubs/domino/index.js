// turndown's Node entry parses HTML strings with domino; cdp-mcp runs turndown's browser build in the page.
export function createDocument() {
  throw new Error('@mixmark-io/domino is not installed: cdp-mcp runs turndown in the page.');
}
