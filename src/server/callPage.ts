import type {BrowserScope} from '../browser/core/BrowserScope.js';
import type {Page} from '../browser/core/Page.js';
import {guardPage} from '../browser/core/pageGuard.js';
import type {PageTool} from '../tools/defineTool.js';

// The page and dialog steps of the pipeline: the page a page tool acts on,
// whether it can do the work, and the guard its work runs under.

/** The page a page-scoped tool acts on: its pageId's, else the session's selected page. */
export function pageFor(params: Record<string, unknown>, scope: BrowserScope): Page {
  const pageId = params['pageId'];
  return typeof pageId === 'number' ? scope.getPageById(pageId) : scope.getSelectedPage();
}

/** Refuses a page tool on a page that cannot do its work: crashed, or paused by a dialog it would wait on. */
export function throwIfUnusable(page: Page, tool: Pick<PageTool, 'worksOnCrashedPage' | 'blockedByDialog'>): void {
  if (page.crashed && !tool.worksOnCrashedPage) {
    throw new Error(
      `Page ${page.id} has crashed. Reload it with navigate_page (type=reload) or close it with close_page.`,
    );
  }
  if (tool.blockedByDialog) {
    page.throwIfDialogOpen();
  }
}

/** Stops work of `tool` on `page` when the page crashes or a dialog pauses it (not handle_dialog's own dialogs). */
export function pageGuard(
  scope: BrowserScope,
  page: Page,
  tool: Pick<PageTool, 'name' | 'answersDialogs'>,
): <T>(work: Promise<T>) => Promise<T> {
  return work => guardPage(scope, page, work, tool.name, !tool.answersDialogs);
}
