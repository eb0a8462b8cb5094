import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {isPageTarget} from '../../../src/browser/core/pageTargets.js';

const DEVTOOLS = 'devtools://devtools/bundled/devtools_app.html?targetType=tab';

describe('page targets (list_pages)', () => {
  it('lists page targets on web content, the new tab page and chrome://inspect, never other browser chrome', () => {
    for (const url of [
      'about:blank',
      'https://example.com/',
      'chrome://newtab/',
      'chrome://new-tab-page/',
      'chrome://inspect/#devices',
    ]) {
      assert.equal(isPageTarget({type: 'page', url}), true, url);
    }
    for (const url of [
      'chrome://version/',
      'chrome://omnibox-popup.top-chrome/',
      'chrome-untrusted://print/',
      DEVTOOLS,
    ]) {
      assert.equal(isPageTarget({type: 'page', url}), false, url);
      assert.equal(isPageTarget({type: 'page', url}, {devtools: true, includeAllPages: true}), url === DEVTOOLS, url);
    }
  });

  it('adds webviews and background pages with --experimentalIncludeAllPages only', () => {
    for (const type of ['webview', 'background_page']) {
      assert.equal(isPageTarget({type, url: 'chrome-extension://abc/bg.html'}), false);
      assert.equal(isPageTarget({type, url: 'chrome-extension://abc/bg.html'}, {includeAllPages: true}), true);
    }
    for (const type of ['service_worker', 'worker', 'iframe', 'browser_ui', 'tab', 'other']) {
      assert.equal(isPageTarget({type, url: 'https://example.com/'}, {includeAllPages: true}), false, type);
    }
  });

  it('adds DevTools windows (other targets on devtools://) with --experimentalDevtools only', () => {
    assert.equal(isPageTarget({type: 'other', url: DEVTOOLS}), false);
    assert.equal(isPageTarget({type: 'other', url: DEVTOOLS}, {includeAllPages: true}), false);
    assert.equal(isPageTarget({type: 'other', url: DEVTOOLS}, {devtools: true}), true);
    assert.equal(isPageTarget({type: 'page', url: DEVTOOLS}, {devtools: true}), true);
  });
});
