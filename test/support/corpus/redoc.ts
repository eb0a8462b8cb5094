import {apiRoutes, SPEC_PATH} from './petstore.js';
import type {CorpusPage} from './types.js';

/** Redoc: three-panel API reference (React, styled-components) with a menu that scrolls the docs. */
export const redoc: CorpusPage = {
  id: 'redoc',
  title: 'Redoc API reference',
  packages: [{name: 'redoc', version: '2.5.4', license: 'MIT'}],
  constructs: ['API reference (React)', 'side menu of tags and operations', 'deprecated badges', 'schema tables'],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Redoc</title>
<script src="/node_modules/redoc/bundles/redoc.standalone.js"></script></head><body>
<div id="redoc"></div>
<script>
// Redoc's menu footer shows its logo from cdn.redoc.ly once mounted and drops
// it when the image fails (no network here): note when the image has had its
// answer, so that the page counts as ready after that, not by timing.
document.addEventListener('error', e => { if (e.target.alt === 'redocly logo') window.logoSettled = true; }, true);
document.addEventListener('load', e => { if (e.target.alt === 'redocly logo') window.logoSettled = true; }, true);
Redoc.init('${SPEC_PATH}', {disableSearch: true, hideDownloadButton: true, nativeScrollbars: true}, document.getElementById('redoc'), () => { window.redocReady = true; });
</script></body></html>`,
  routes: apiRoutes,
  ready: `window.redocReady === true && !!document.querySelector('.menu-content') && window.logoSettled === true && (img => !img || img.naturalWidth > 0)(document.querySelector('img[alt="redocly logo"]'))`,
  steps: [
    {
      label: 'open the owners tag in the menu',
      tool: 'click',
      target: /"owners"/,
      until: `!!document.querySelector('[data-item-id="tag/owners/operation/listOwners"]')?.offsetParent`,
    },
    {
      label: 'go to an operation',
      tool: 'click',
      target: /"List owners"/,
      until: `location.hash === '#tag/owners/operation/listOwners'`,
    },
  ],
  task: {
    description: 'Navigate the menu to "List owners"',
    check: `() => location.hash`,
    expect: '#tag/owners/operation/listOwners',
  },
};
