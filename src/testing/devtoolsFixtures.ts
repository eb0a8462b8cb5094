import type {FixtureServer} from './fixtureServer.js';

/** An 800x500 SVG: big enough to be the page's largest contentful paint. */
export const HERO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="500" viewBox="0 0 800 500"><rect width="800" height="500" fill="#3a6"/><circle cx="400" cy="250" r="180" fill="#fc3"/></svg>`;

/** Served after this delay, so it blocks the first render measurably. */
export const BLOCKING_CSS_DELAY_MS = 300;

/**
 * A small shop page for the performance tools: a render-blocking stylesheet
 * served late, an LCP image, no charset declaration (so the CharacterSet
 * insight fires), and a cascade for get_css_styles (.hero is styled by an
 * author rule that overrides the user-agent font size, and inherits from body).
 */
export function routePerformancePages(server: FixtureServer): void {
  server
    .route('/shop', {
      headers: {'content-type': 'text/html'},
      body: `<!doctype html><html><head><title>Shop</title>
<link rel="stylesheet" href="/blocking.css">
<style>
body { color: rgb(10, 20, 30); font-family: serif; line-height: 1.5; }
h1.hero { margin: 4px; }
.note { color: rgb(0, 0, 200) !important; }
</style></head><body>
<h1 class="hero">Big sale</h1>
<img src="/hero.svg" width="800" height="500" alt="Sale banner">
<p class="note" style="font-weight: 600">Ends soon</p>
<button>Buy</button>
</body></html>`,
    })
    .route('/blocking.css', {
      headers: {'content-type': 'text/css'},
      delayMs: BLOCKING_CSS_DELAY_MS,
      body: `.hero { color: rgb(200, 0, 0); font-size: 32px; }\np { color: rgb(0, 128, 0); margin: 2px; }\n`,
    })
    .route('/hero.svg', {headers: {'content-type': 'image/svg+xml', 'cache-control': 'no-cache'}, body: HERO_SVG})
    // A page with nothing for the insights to find: charset and viewport
    // declared, no third parties, no scripts, no web fonts, cached resources.
    .route('/clean', {
      headers: {'content-type': 'text/html; charset=utf-8', 'cache-control': 'max-age=31536000'},
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Clean</title></head><body><h1>Hello</h1><p>Plain text, nothing to fix.</p></body></html>`,
    });
}
