import {crc32, deflateSync} from 'node:zlib';

import type {FixtureServer, Route} from './fixtureServer.js';

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A grey-noise PNG. Chrome leaves low-entropy images (a flat SVG) out of LCP,
 * so the hero image must carry real detail to be the largest contentful paint.
 */
export function noisePng(width: number, height: number, seed = 1): Buffer {
  const raw = Buffer.alloc((width + 1) * height);
  let state = seed;
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = 0; // filter: none
    for (let x = 1; x <= width; x++) {
      state = (state * 1103515245 + 12345) >>> 0;
      raw[y * (width + 1) + x] = state >>> 24;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The hero image, served late so that its load shows in the LCP breakdown. */
export const HERO_IMAGE_DELAY_MS = 150;

/** Served after this delay, so it blocks the first render measurably. */
export const BLOCKING_CSS_DELAY_MS = 300;

/**
 * A small shop page for the performance tools: a render-blocking stylesheet
 * served late, a hero image that is the LCP, no charset declaration (so the CharacterSet
 * insight fires), and a cascade for get_css_styles (.hero is styled by an
 * author rule that overrides the user-agent font size, and inherits from body).
 */
export const PERFORMANCE_ROUTES: Record<string, Route> = {
  '/shop': {
    headers: {'content-type': 'text/html'},
    body: `<!doctype html><html><head><title>Shop</title>
<link rel="stylesheet" href="/blocking.css">
<style>
body { color: rgb(10, 20, 30); font-family: serif; line-height: 1.5; }
h1.hero { margin: 4px; }
.note { color: rgb(0, 0, 200) !important; }
</style></head><body>
<h1 class="hero">Big sale</h1>
<img src="/hero.png" width="600" height="300" alt="Sale banner">
<p class="note" style="font-weight: 600">Ends soon</p>
<button>Buy</button>
</body></html>`,
  },
  '/blocking.css': {
    headers: {'content-type': 'text/css'},
    delayMs: BLOCKING_CSS_DELAY_MS,
    body: `.hero { color: rgb(200, 0, 0); font-size: 32px; }\np { color: rgb(0, 128, 0); margin: 2px; }\n`,
  },
  '/hero.png': {
    headers: {'content-type': 'image/png', 'cache-control': 'no-cache'},
    delayMs: HERO_IMAGE_DELAY_MS,
    body: noisePng(600, 300),
  },
  // A page with nothing for the insights to find: charset and viewport
  // declared, no third parties, no scripts, no web fonts, cached resources.
  '/clean': {
    headers: {'content-type': 'text/html; charset=utf-8', 'cache-control': 'max-age=31536000'},
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Clean</title></head><body><h1>Hello</h1><p>Plain text, nothing to fix.</p></body></html>`,
  },
};

export function routePerformancePages(server: FixtureServer): void {
  for (const [path, route] of Object.entries(PERFORMANCE_ROUTES)) {
    server.route(path, route);
  }
}
