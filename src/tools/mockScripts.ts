/**
 * Mocks under --no-javascript-evaluation. A mock is content the server
 * itself serves: an HTML body with an inline script, or a mocked script URL,
 * would run JavaScript the caller gives in the page, which the switch turns
 * off. So with the switch on, only bodies a browser never runs are served
 * (data: JSON, text, CSS, images, media, fonts, binary), and each carries
 * `X-Content-Type-Options: nosniff` (no script element runs it under another
 * type) and `Content-Security-Policy: script-src 'none'; object-src 'none'`
 * (opened as a document, it runs nothing).
 */

/** Content types a browser neither runs as a script nor renders as a document that can hold one. */
const INERT_TYPES = [
  /^application\/(?:[\w.+-]+\+)?json$/,
  /^text\/(?:plain|csv|css|event-stream)$/,
  /^image\/(?!svg)[\w.+-]+$/,
  /^(?:audio|video|font)\/[\w.+-]+$/,
  /^application\/(?:octet-stream|x-www-form-urlencoded|(?:x-)?protobuf|grpc|zip|gzip)$/,
];

const SCRIPT_FREE_CSP = "script-src 'none'; object-src 'none'";

/**
 * The headers to serve with JavaScript evaluation off; throws when the
 * mock's content type is one a browser would run (or that is unknown).
 */
export function scriptFreeMockHeaders(headers: Record<string, string>): Record<string, string> {
  const isNamed = (name: string) => (key: string) => key.toLowerCase() === name;
  const typeKey = Object.keys(headers).find(isNamed('content-type'));
  const type = (typeKey ? headers[typeKey] : '')?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!INERT_TYPES.some(pattern => pattern.test(type))) {
    throw new Error(
      `A mock with Content-Type "${type}" is not allowed with --no-javascript-evaluation: a browser runs HTML, XHTML, SVG, XML, JavaScript and WebAssembly bodies (and sniffs unknown types), which would run JavaScript the caller gives. Mock data instead (JSON, text, CSS, images, audio, video, fonts, application/octet-stream), or restart the server without --no-javascript-evaluation.`,
    );
  }
  const cspKey = Object.keys(headers).find(isNamed('content-security-policy'));
  const given = cspKey ? headers[cspKey] : undefined;
  const rest = Object.fromEntries(
    Object.entries(headers).filter(
      ([name]) => !['content-security-policy', 'x-content-type-options'].includes(name.toLowerCase()),
    ),
  );
  return {
    ...rest,
    'x-content-type-options': 'nosniff',
    // Several policies in one header all apply: the page's own stays, ours is added.
    'content-security-policy': given ? `${given}, ${SCRIPT_FREE_CSP}` : SCRIPT_FREE_CSP,
  };
}
