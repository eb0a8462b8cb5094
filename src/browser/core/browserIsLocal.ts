/** Where the browser's DevTools endpoint is, as the flags give it (neither: we launch it). */
export interface EndpointFlags {
  browserUrl?: string;
  wsEndpoint?: string;
}

/**
 * Whether the browser runs on this machine: launched by us, or attached on a
 * loopback address. Paths the browser reads (upload_file) are then ours to check.
 */
export function browserIsLocal(endpoint: EndpointFlags): boolean {
  const url = endpoint.browserUrl ?? endpoint.wsEndpoint;
  if (!url) {
    return true;
  }
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host);
  } catch {
    return false;
  }
}
