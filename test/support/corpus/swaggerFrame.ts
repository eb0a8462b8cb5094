import {apiRoutes, SPEC_PATH} from './petstore.js';
import type {CorpusPage} from './types.js';

/**
 * Swagger UI inside a cross-site iframe (issue 28): a developer portal on
 * 127.0.0.1 embeds the API console from localhost, so Chrome runs it out of
 * process. The agent tries an operation there; the request goes to the
 * frame's origin, and the result is read in the frame (the top document
 * cannot see it): by wait_for, the network list and the task check.
 */
export const swaggerFrame: CorpusPage = {
  id: 'swagger-ui-frame',
  title: 'Swagger UI in a cross-site iframe',
  packages: [{name: 'swagger-ui-dist', version: '5.35.0', license: 'Apache-2.0'}],
  constructs: [
    'request-making widget in a cross-site, out-of-process iframe',
    'result rendered in the frame after a request',
    "request made from the frame's origin",
  ],
  html: host => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Developer portal</title></head><body>
<h1>Developer portal</h1>
<p>Try the Pet Store API below.</p>
<iframe title="API console" src="${host.crossSiteUrl('/corpus/swagger-ui-frame/console')}" style="width: 1100px; height: 560px; border: 1px solid #888"></iframe>
<script>addEventListener('message', e => { if (e.origin.startsWith('http://localhost:') && e.data === 'console ready') window.consoleReady = true; });</script>
</body></html>`,
  routes: () => ({
    ...apiRoutes(),
    '/corpus/swagger-ui-frame/console': {
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>API console</title>
<link rel="stylesheet" href="/node_modules/swagger-ui-dist/swagger-ui.css">
<script src="/node_modules/swagger-ui-dist/swagger-ui-bundle.js"></script></head><body>
<div id="swagger"></div>
<script>
window.ui = SwaggerUIBundle({url: '${SPEC_PATH}', dom_id: '#swagger', deepLinking: false, tryItOutEnabled: false, syntaxHighlight: false,
  onComplete: () => parent.postMessage('console ready', '*')});
</script></body></html>`,
    },
  }),
  // The console says when it has rendered the spec (Swagger UI's onComplete), by message: the top cannot look inside.
  ready: `window.consoleReady === true`,
  steps: [
    {label: 'wait for the console in the frame', tool: 'wait_for', text: ['List all pets']},
    // The operation's body renders after the click's own settle on a busy machine, in the frame (the top cannot look):
    // both servers wait for it before the comparison, as for the response below.
    {
      label: 'expand an operation in the frame',
      tool: 'click',
      target: /button "GET \S*pets List all pets"/,
      untilText: ['Try it out'],
    },
    {label: 'wait for its try-it-out button', tool: 'wait_for', text: ['Try it out']},
    {label: 'start trying it out', tool: 'click', target: /button "Try it out"/, untilText: ['Execute']},
    {label: 'wait for the execute button', tool: 'wait_for', text: ['Execute']},
    {label: 'fill a parameter in the frame', tool: 'fill', target: /textbox "limit"/, value: '2'},
    // The response renders when the request answers, after the click's own settle on a busy machine: both servers wait for it before the comparison.
    {label: 'execute the request', tool: 'click', target: /button "Execute"/, untilText: ['Response body']},
    {label: 'wait for the response in the frame', tool: 'wait_for', text: ['Server response']},
    {
      label: 'find the request in the network list',
      tool: 'list_network_requests',
      expect: /GET http:\/\/localhost:\d+\/corpus\/api\/pets\?limit=2 \[200\]/,
    },
  ],
  task: {
    description:
      'In the API console embedded from another site, open "GET /pets", try it out with limit=2, execute it and find the request',
    checkIn: /heading "Server response"/,
    check: `(el) => { const op = el.ownerDocument.querySelector('#operations-pets-listPets'); return {open: op.classList.contains('is-open'), status: op.querySelector('.live-responses-table tbody .response-col_status')?.textContent.trim(), url: op.querySelector('.request-url pre')?.textContent.replace(el.ownerDocument.location.origin, '')}; }`,
    expect: {open: true, status: '200', url: '/corpus/api/pets?limit=2'},
  },
};
