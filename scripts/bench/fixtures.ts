/**
 * Fixture pages and the fixture HTTP server of the benchmark (scripts/bench/bench.ts).
 * Every page is generated here; no dependencies beyond node:*.
 */
import {writeFileSync} from 'node:fs';
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import os from 'node:os';
import path from 'node:path';

import {PERFORMANCE_ROUTES} from '../../test/support/devtoolsFixtures.js';
import {buttonsPage} from '../../test/support/fixtures.js';

export {buttonsPage};

const HEAD = '<meta charset="utf-8"><link rel="icon" href="data:,">';
const page = (title: string, body: string) =>
  `<!doctype html><html><head>${HEAD}<title>${title}</title></head><body>${body}</body></html>`;

export function simplePage(): string {
  return page('Simple', '<h1>Hello</h1><p>Simple page</p>');
}

/**
 * Input fixture. Counters on window observe the effects of each tool:
 * clicks, hovers (mouseenter on either hover target), keys (keydown of "a"), changes.
 */
export function formPage(): string {
  return page(
    'Form',
    `<main>
<label for="name">Name</label> <input id="name" name="name" type="text">
<label for="email">Email</label> <input id="email" name="email" type="text">
<label for="color">Color</label> <select id="color"><option>Red</option><option>Green</option><option>Blue</option></select>
<label for="typed">Typed</label> <textarea id="typed"></textarea>
<button type="button" id="count" onclick="out.value = String(++window.clicks)">Count</button>
<button type="button" id="hoverA" onmouseenter="hovered.value = String(++window.hovers)">Hover A</button>
<button type="button" id="hoverB" onmouseenter="hovered.value = String(++window.hovers)">Hover B</button>
<output id="out">0</output> <output id="hovered">0</output>
<script>
window.clicks = 0; window.hovers = 0; window.keys = 0;
document.addEventListener('keydown', e => { if (e.key === 'a') window.keys++; });
</script>
</main>`,
  );
}

/** HTML5 drag-and-drop list: dropping an item moves it before the drop target; window.drops counts drops. */
export function dragPage(): string {
  const items = [1, 2, 3, 4, 5]
    .map(i => `<li draggable="true" id="i${i}" aria-label="Item ${i}">Item ${i}</li>`)
    .join('');
  return page(
    'Drag',
    `<main><ul id="list">${items}</ul>
<script>
window.drops = 0;
let dragged = null;
const list = document.getElementById('list');
list.addEventListener('dragstart', e => { dragged = e.target.closest('li'); e.dataTransfer.setData('text/plain', dragged.id); });
list.addEventListener('dragover', e => e.preventDefault());
list.addEventListener('drop', e => {
  e.preventDefault();
  const target = e.target.closest('li');
  if (dragged && target && target !== dragged) list.insertBefore(dragged, target);
  window.drops++;
});
</script></main>`,
  );
}

/** A file input; window.uploads counts change events, window.lastFile is the last file name. */
export function uploadPage(): string {
  return page(
    'Upload',
    `<main><input type="file" id="file" aria-label="Upload file">
<script>
window.uploads = 0; window.lastFile = '';
document.getElementById('file').addEventListener('change', e => { window.uploads++; window.lastFile = e.target.files[0]?.name ?? ''; });
</script></main>`,
  );
}

/**
 * Logs n distinct console messages and fetches /data?i=1..n from the fixture server,
 * then shows "all done <n>". window.dialogs counts alerts opened via window.openDialog().
 */
export function activityPage(n: number): string {
  return page(
    `Activity ${n}`,
    `<main><h1>Activity</h1><p id="status">working</p>
<script>
for (let i = 1; i <= ${n}; i++) console.log('bench message ' + i);
Promise.all(Array.from({length: ${n}}, (_, i) => fetch('/data?i=' + (i + 1)).then(r => r.text())))
  .then(() => { document.getElementById('status').textContent = 'all done ${n}'; });
</script></main>`,
  );
}

/** Files in the OS temp dir for upload_file (both servers accept it; ours sandboxes paths to it). */
export function uploadFiles(): string[] {
  const files = ['cdp-mcp-bench-upload-a.txt', 'cdp-mcp-bench-upload-b.txt'].map(f => path.join(os.tmpdir(), f));
  for (const f of files) {
    writeFileSync(f, `upload fixture ${path.basename(f)}\n`);
  }
  return files;
}

export interface FixtureServer {
  origin: string;
  url(path: string): string;
  /** Requests served so far. */
  requests(): number;
  close(): Promise<void>;
}

export async function startFixtureServer(): Promise<FixtureServer> {
  let served = 0;
  const server = http.createServer((req, res) => {
    served++;
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    const n = (def: number) => Math.max(1, Math.min(20000, Number(u.searchParams.get('n') ?? def) || def));
    if (u.pathname === '/data') {
      res.writeHead(200, {'content-type': 'application/json', 'cache-control': 'no-store'});
      res.end(JSON.stringify({i: Number(u.searchParams.get('i')), ok: true}));
      return;
    }
    const pages: Record<string, () => string> = {
      '/simple': simplePage,
      '/form': formPage,
      '/drag': dragPage,
      '/upload': uploadPage,
      '/buttons': () => buttonsPage(n(100)),
      '/activity': () => activityPage(n(10)),
    };
    const devtoolsRoute = PERFORMANCE_ROUTES[u.pathname];
    if (devtoolsRoute) {
      setTimeout(() => {
        res.writeHead(200, {'content-type': 'text/html', ...devtoolsRoute.headers});
        res.end(devtoolsRoute.body ?? '');
      }, devtoolsRoute.delayMs ?? 0);
      return;
    }
    const body = pages[u.pathname]?.();
    if (body === undefined) {
      res.writeHead(404, {'content-type': 'text/plain'}).end('not found');
      return;
    }
    res.writeHead(200, {'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store'});
    res.end(body);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const {port} = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (p: string) => origin + p,
    requests: () => served,
    close: () =>
      new Promise<void>(resolve => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
