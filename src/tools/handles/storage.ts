/** The storage facet of a page handle: browser/storage's cookies and web storage state. */
import type {Browser} from '../../browser/core/Browser.js';
import type {Page} from '../../browser/core/Page.js';
import {parseStorageText} from '../../browser/storage/storageFormat.js';
import {applyStorageState, captureStorageState} from '../../browser/storage/storageState.js';
import type {ToolStorage} from '../context.js';

export function pageStorage(page: Page, browser: Browser): ToolStorage {
  return {
    save: () => captureStorageState(browser, page),
    parse: text => parseStorageText(text),
    load: state => applyStorageState(browser, page, state),
  };
}
