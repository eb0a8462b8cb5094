/** The page an agent asked for; both fields optional, as in the reference. */
export interface PageRequest {
  pageIdx?: number;
  pageSize?: number;
}

/** Where a page sits in the full list: enough to print the reference's pagination lines. */
export interface PageInfo {
  total: number;
  startIndex: number;
  endIndex: number;
  currentPage: number;
  totalPages: number;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  invalidPage: boolean;
}

export interface Page<T> {
  items: T[];
  info: PageInfo;
}

const DEFAULT_PAGE_SIZE = 20;

/**
 * The reference's pagination: no pageIdx and no pageSize means everything;
 * otherwise pages of pageSize (default 20), and an out-of-range pageIdx falls
 * back to the first page with invalidPage set.
 */
export function paginate<T>(items: readonly T[], request: PageRequest = {}): Page<T> {
  const total = items.length;
  if (request.pageIdx === undefined && request.pageSize === undefined) {
    return {
      items: [...items],
      info: {
        total,
        startIndex: 0,
        endIndex: total,
        currentPage: 0,
        totalPages: 1,
        hasNextPage: false,
        hasPreviousPage: false,
        invalidPage: false,
      },
    };
  }
  const size = request.pageSize ?? DEFAULT_PAGE_SIZE;
  const totalPages = Math.max(1, Math.ceil(total / size));
  const invalidPage = request.pageIdx !== undefined && (request.pageIdx < 0 || request.pageIdx >= totalPages);
  const currentPage = invalidPage ? 0 : (request.pageIdx ?? 0);
  const startIndex = currentPage * size;
  const pageItems = items.slice(startIndex, startIndex + size);
  return {
    items: pageItems,
    info: {
      total,
      startIndex,
      endIndex: startIndex + pageItems.length,
      currentPage,
      totalPages,
      hasNextPage: currentPage < totalPages - 1,
      hasPreviousPage: currentPage > 0,
      invalidPage,
    },
  };
}

/** The reference's lines around a page: invalid-page note, "Showing …", next/previous. */
export function paginationLines(info: PageInfo): string[] {
  const lines: string[] = [];
  if (info.invalidPage) {
    lines.push('Invalid page number provided. Showing first page.');
  }
  const first = info.total === 0 ? 0 : info.startIndex + 1;
  lines.push(
    `Showing ${first}-${info.endIndex} of ${info.total} (Page ${info.currentPage + 1} of ${info.totalPages}).`,
  );
  if (info.hasNextPage) {
    lines.push(`Next page: ${info.currentPage + 1}`);
  }
  if (info.hasPreviousPage) {
    lines.push(`Previous page: ${info.currentPage - 1}`);
  }
  return lines;
}
