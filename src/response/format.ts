/**
 * Pure formatters for the sections of a tool response. Each takes plain data
 * and returns lines; ResponseBuilder decides the order.
 */

/** A dialog as shown in the `# Open dialog` block. */
export interface DialogView {
  type: string;
  message: string;
  defaultPrompt?: string;
}

/** The emulated features of a page, as the status lines show them; absent means not emulated. */
export interface EmulationView {
  networkConditions?: string;
  geolocation?: {latitude: number; longitude: number};
  viewport?: {
    deviceScaleFactor: number;
    isMobile: boolean;
    hasTouch: boolean;
    isLandscape: boolean;
    width: number;
    height: number;
  };
  userAgent?: string;
  cpuThrottlingRate?: number;
  colorScheme?: string;
  forcedColors?: string;
  prefersContrast?: string;
  prefersReducedMotion?: string;
}

export interface PageSummary {
  id: number;
  title: string;
  url: string;
  selected: boolean;
  isolatedContext?: string;
}

const MAX_TITLE = 50;

export function formatPageLabel(title: string, url: string): string {
  if (!title) {
    return url;
  }
  const short = title.length > MAX_TITLE ? `${title.slice(0, MAX_TITLE - 3)}...` : title;
  return `${short} (${url})`;
}

export function formatPages(pages: PageSummary[], heading = '## Pages'): string[] {
  if (pages.length === 0) {
    return [];
  }
  return [
    heading,
    ...pages.map(
      p =>
        `${p.id}: ${formatPageLabel(p.title, p.url)}${p.selected ? ' [selected]' : ''}${
          p.isolatedContext ? ` isolatedContext=${p.isolatedContext}` : ''
        }`,
    ),
  ];
}

export function formatDialog(dialog: DialogView): string[] {
  const detail =
    dialog.type === 'prompt'
      ? `${dialog.type}: ${dialog.message} (default value: "${dialog.defaultPrompt ?? ''}").`
      : `${dialog.type}: ${dialog.message}.`;
  return ['# Open dialog', detail, 'Call handle_dialog to handle it before continuing.'];
}

const DIALOG_ARTICLES: Record<string, string> = {alert: 'an', confirm: 'a', prompt: 'a', beforeunload: 'a'};

/**
 * The line saying which dialog was answered for the agent during a call, and
 * how. beforeunload is worded as the reference's navigate_page words it; the
 * reference says nothing for the others (evaluate_script's dialogAction), so
 * an agent could not know that its alert was shown and accepted.
 */
export function formatHandledDialog(dialog: DialogView, action: string): string {
  const done = action === 'dismiss' ? 'Dismissed' : 'Accepted';
  const kind = `${DIALOG_ARTICLES[dialog.type] ?? 'a'} ${dialog.type} dialog`;
  if (dialog.type === 'beforeunload') {
    return `${done} ${kind}.`;
  }
  const answer =
    dialog.type === 'prompt' && action !== 'accept' && action !== 'dismiss'
      ? `, answering ${JSON.stringify(action)}`
      : '';
  return `${done} ${kind} with the message ${JSON.stringify(dialog.message)}${answer}.`;
}

/** Where a page of a list is, as structured content gives it (indexes 0-based, end exclusive). */
export interface PaginationInfo {
  currentPage: number;
  totalPages: number;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startIndex: number;
  endIndex: number;
  invalidPage: boolean;
}

/** Pagination as the reference prints it (also used by console/network lists). */
export interface PaginationResult<T> {
  items: T[];
  lines: string[];
  info: PaginationInfo;
}

export function paginate<T>(all: T[], pageSize: number | undefined, pageIdx: number | undefined): PaginationResult<T> {
  const total = all.length;
  if (pageSize === undefined && pageIdx === undefined) {
    return {
      items: all,
      lines: [`Showing 1-${total} of ${total} (Page 1 of 1).`],
      info: {
        currentPage: 0,
        totalPages: 1,
        hasNextPage: false,
        hasPreviousPage: false,
        startIndex: 0,
        endIndex: total,
        invalidPage: false,
      },
    };
  }
  const size = pageSize ?? 20;
  const totalPages = Math.max(1, Math.ceil(total / size));
  const lines: string[] = [];
  let idx = pageIdx ?? 0;
  const invalidPage = idx < 0 || idx >= totalPages;
  if (invalidPage) {
    lines.push('Invalid page number provided. Showing first page.');
    idx = 0;
  }
  const start = idx * size;
  const end = Math.min(total, start + size);
  lines.push(`Showing ${total === 0 ? 1 : start + 1}-${end} of ${total} (Page ${idx + 1} of ${totalPages}).`);
  if (idx + 1 < totalPages) {
    lines.push(`Next page: ${idx + 1}`);
  }
  if (idx > 0) {
    lines.push(`Previous page: ${idx - 1}`);
  }
  const info = {
    currentPage: idx,
    totalPages,
    hasNextPage: idx + 1 < totalPages,
    hasPreviousPage: idx > 0,
    startIndex: start,
    endIndex: end,
    invalidPage,
  };
  return {items: all.slice(start, end), lines, info};
}

/**
 * Emulation status lines shown on page-scoped responses, in the reference's
 * order, each only when that feature is emulated.
 */
export function formatEmulation(state: EmulationView, navigationTimeoutMs: number): string[] {
  const lines: string[] = [];
  if (state.networkConditions) {
    lines.push(`Emulating network conditions: ${state.networkConditions}`);
    lines.push(`Default navigation timeout set to ${navigationTimeoutMs} ms`);
  }
  if (state.geolocation) {
    lines.push(
      `Emulating geolocation: latitude=${state.geolocation.latitude}, longitude=${state.geolocation.longitude}`,
    );
  }
  if (state.viewport) {
    const {deviceScaleFactor, isMobile, hasTouch, isLandscape, width, height} = state.viewport;
    lines.push(
      `Emulating viewport: ${JSON.stringify({deviceScaleFactor, isMobile, hasTouch, isLandscape, width, height})}`,
    );
  }
  if (state.userAgent) {
    lines.push(`Emulating user agent: ${state.userAgent}`);
  }
  if (state.cpuThrottlingRate && state.cpuThrottlingRate > 1) {
    lines.push(`Emulating CPU throttling: ${state.cpuThrottlingRate}x slowdown`);
  }
  if (state.colorScheme) {
    lines.push(`Emulating color scheme: ${state.colorScheme}`);
  }
  if (state.forcedColors) {
    lines.push(`Emulating forced-colors: ${state.forcedColors}`);
  }
  if (state.prefersContrast) {
    lines.push(`Emulating prefers-contrast: ${state.prefersContrast}`);
  }
  if (state.prefersReducedMotion) {
    lines.push(`Emulating prefers-reduced-motion: ${state.prefersReducedMotion}`);
  }
  return lines;
}
