/** Pure formatters for downloads: one line each, in the list and in an action's response. */

export interface DownloadView {
  id: number;
  fileName: string;
  url: string;
  state: 'inProgress' | 'completed' | 'canceled' | 'refused';
  receivedBytes: number;
  totalBytes: number;
  path: string | undefined;
  pageId: number | undefined;
  note: string | undefined;
}

/** URLs longer than this (data: URLs) are cut in download lines. */
const URL_LIMIT = 255;

function status(d: DownloadView): string {
  switch (d.state) {
    case 'completed':
      return `completed, ${d.receivedBytes} bytes`;
    case 'inProgress':
      return d.totalBytes > 0
        ? `in progress, ${d.receivedBytes} of ${d.totalBytes} bytes`
        : `in progress, ${d.receivedBytes} bytes`;
    case 'canceled':
      return 'canceled';
    case 'refused':
      return `refused: ${d.note ?? 'the downloads folder is outside the allowed roots'}`;
  }
}

export function formatDownloadLine(d: DownloadView): string {
  const url = d.url.length > URL_LIMIT ? `${d.url.slice(0, URL_LIMIT)}…` : d.url;
  const page = d.pageId === undefined ? '' : ` (page ${d.pageId})`;
  const path = d.path ? ` saved to ${d.path}` : '';
  const note = d.note && d.state !== 'refused' ? ` (${d.note})` : '';
  return `download=${d.id} "${d.fileName}" [${status(d)}] from ${url}${path}${note}${page}`;
}

/** `## Downloads`: every download of the session (list_downloads). */
export function formatDownloadList(downloads: DownloadView[], dir: string): string[] {
  return [
    '## Downloads',
    downloads.length === 0 ? `No downloads yet (they are saved to ${dir}).` : undefined,
    ...downloads.map(formatDownloadLine),
  ].filter((line): line is string => line !== undefined);
}

/** `## Downloads started`: the downloads an action started. */
export function formatStartedDownloads(downloads: DownloadView[]): string[] {
  const running = downloads.some(d => d.state === 'inProgress');
  return [
    '## Downloads started',
    ...downloads.map(formatDownloadLine),
    ...(running ? ['Call list_downloads to see when they finish.'] : []),
  ];
}

/** The section of what the URL policy blocked during a call: one line per kind and URL. */
export function formatBlocked(blocked: ReadonlyArray<{kind: string; url: string}>): string[] {
  return [
    '## Blocked by the URL policy',
    ...blocked.map(({kind, url}) => `- ${kind} ${url.length > URL_LIMIT ? `${url.slice(0, URL_LIMIT)}…` : url}`),
  ];
}
