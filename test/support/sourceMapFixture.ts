import type {FixtureServer} from './fixtureServer.js';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function vlq(n: number): string {
  let v = n < 0 ? (-n << 1) | 1 : n << 1;
  let out = '';
  do {
    let digit = v & 31;
    v >>>= 5;
    if (v) {
      digit |= 32;
    }
    out += B64[digit];
  } while (v);
  return out;
}

/** Source map mappings for one generated line: [generatedColumn, originalLine, originalColumn] (0-based), one source. */
export function mappings(segments: Array<[number, number, number]>): string {
  let col = 0;
  let line = 0;
  let origCol = 0;
  return segments
    .map(([g, l, c]) => {
      const s = vlq(g - col) + vlq(0) + vlq(l - line) + vlq(c - origCol);
      col = g;
      line = l;
      origCol = c;
      return s;
    })
    .join(',');
}

/**
 * A "bundle" compiled from src/widget.ts, served at /static/bundle.js with
 * its map: render() throws at widget.ts:3:11 from a timer. Returns the
 * bundle's (one-line) text, to compute generated positions from.
 */
export function serveMappedBundle(fixtures: FixtureServer): string {
  const generated =
    'function render(){throw new Error("widget exploded")}function mount(){render()}setTimeout(function(){mount()},0);';
  const map = {
    version: 3,
    file: 'bundle.js',
    sources: ['../src/widget.ts'],
    names: [],
    mappings: mappings([
      [0, 0, 0],
      [generated.indexOf('throw'), 2, 10],
      [generated.indexOf('function mount'), 5, 0],
      [generated.indexOf('render()}setTimeout'), 6, 2],
      [generated.indexOf('setTimeout'), 9, 0],
      [generated.indexOf('mount()},0'), 10, 4],
    ]),
  };
  fixtures.route('/static/bundle.js', {
    headers: {'content-type': 'text/javascript'},
    body: `${generated}\n//# sourceMappingURL=bundle.js.map`,
  });
  fixtures.route('/static/bundle.js.map', {headers: {'content-type': 'application/json'}, body: JSON.stringify(map)});
  return generated;
}
