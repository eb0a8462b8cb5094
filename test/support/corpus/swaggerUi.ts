import {apiRoutes, SPEC_PATH} from './petstore.js';
import type {CorpusPage} from './types.js';

/** Swagger UI: operations as expandable blocks, "Try it out" forms, live requests. */
export const swaggerUi: CorpusPage = {
  id: 'swagger-ui',
  title: 'Swagger UI API docs',
  packages: [{name: 'swagger-ui-dist', version: '5.35.0', license: 'Apache-2.0'}],
  constructs: [
    'API-docs renderer (React)',
    'operation blocks with aria-expanded',
    'paths broken with zero-width spaces',
    'try-it-out form and live response',
    'SVG icons',
  ],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Swagger UI</title>
<link rel="stylesheet" href="/node_modules/swagger-ui-dist/swagger-ui.css">
<script src="/node_modules/swagger-ui-dist/swagger-ui-bundle.js"></script></head><body>
<div id="swagger"></div>
<script>
window.ui = SwaggerUIBundle({url: '${SPEC_PATH}', dom_id: '#swagger', deepLinking: false, tryItOutEnabled: false, syntaxHighlight: false});
</script></body></html>`,
  routes: apiRoutes,
  ready: `!!document.querySelector('.opblock-summary') && document.querySelectorAll('.opblock').length === 5`,
  steps: [
    {
      label: 'expand an operation',
      tool: 'click',
      target: /button "GET \S*pets List all pets"/,
      until: `!!document.querySelector('#operations-pets-listPets.is-open .try-out__btn')`,
    },
    {
      label: 'start trying it out',
      tool: 'click',
      target: /button "Try it out"/,
      until: `!!document.querySelector('#operations-pets-listPets .execute')`,
    },
    {label: 'fill a parameter', tool: 'fill', target: /textbox "limit"/, value: '2'},
    {
      label: 'execute the request',
      tool: 'click',
      target: /button "Execute"/,
      until: `document.querySelector('#operations-pets-listPets .live-responses-table tbody .response-col_status')?.textContent.trim() === '200'`,
    },
  ],
  task: {
    description: 'Open "GET /pets", try it out with limit=2 and execute it',
    check: `() => ({open: !!document.querySelector('#operations-pets-listPets.is-open'), status: document.querySelector('#operations-pets-listPets .live-responses-table tbody .response-col_status')?.textContent.trim(), url: document.querySelector('#operations-pets-listPets .request-url pre')?.textContent.replace(location.origin, '')})`,
    expect: {open: true, status: '200', url: '/corpus/api/pets?limit=2'},
  },
};
