import {apiRoutes, SPEC_PATH} from './petstore.js';
import type {CorpusPage} from './types.js';

/** RapiDoc: one web component; operations are `<details>/<summary>` pairs inside its shadow root. */
export const rapidoc: CorpusPage = {
  id: 'rapidoc',
  title: 'RapiDoc API docs',
  packages: [{name: 'rapidoc', version: '9.3.8', license: 'MIT'}],
  constructs: [
    'API-docs web component (Lit)',
    '<details>/<summary> operations in a shadow root',
    'text-transform on HTTP methods',
    'parameter inputs in a shadow root',
  ],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>RapiDoc</title>
<script type="module" src="/node_modules/rapidoc/dist/rapidoc-min.js"></script></head><body>
<rapi-doc spec-url="${SPEC_PATH}" render-style="view" show-header="false" allow-authentication="false" allow-server-selection="false" theme="light" style="height: 100vh; width: 100%"></rapi-doc>
</body></html>`,
  routes: apiRoutes,
  ready: `document.querySelector('rapi-doc')?.shadowRoot?.querySelectorAll('summary.endpoint-head').length === 5`,
  steps: [
    {
      label: 'expand an operation (summary in a shadow root)',
      tool: 'click',
      target: /List all pets/,
      until: `!!document.querySelector('rapi-doc').shadowRoot.querySelector('summary.endpoint-head.expanded')`,
    },
    {
      label: 'fill a parameter',
      tool: 'fill',
      target: /textbox$/,
      value: '3',
    },
  ],
  task: {
    description: 'Expand "GET /pets" and set its limit parameter to 3',
    check: `() => { const inputs = []; const walk = root => { for (const el of root.querySelectorAll('*')) { if (el.localName === 'input') inputs.push(el); if (el.shadowRoot) walk(el.shadowRoot); } }; walk(document); const root = document.querySelector('rapi-doc').shadowRoot; return {expanded: root.querySelectorAll('summary.endpoint-head.expanded').length, limit: inputs.find(i => i.dataset.pname === 'limit')?.value}; }`,
    expect: {expanded: 1, limit: '3'},
  },
};
