import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {
  compileRequestPattern,
  componentGlob,
  fetchGlob,
  reachesOrigin,
} from '../../../src/browser/network/urlPattern.js';
import {normalizeUrlPattern, parseUrlPatternFlag} from '../../../src/util/urlPattern.js';

/** Fetch's wildcard matching ('*' any run, '?' one character, backslash escapes), as Chrome applies it. */
function globMatches(glob: string, url: string): boolean {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] ?? '';
    if (c === '\\') {
      source += (glob[++i] ?? '').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    } else if (c === '*') {
      source += '.*';
    } else if (c === '?') {
      source += '.';
    } else {
      source += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`).test(url);
}

describe('URL pattern globs for the Fetch domain', () => {
  it('keeps literal text and turns pattern constructs into wildcards', () => {
    assert.equal(componentGlob('/api/:id'), '/api/*');
    assert.equal(componentGlob('/files/(\\d+).json'), '/files/*.json');
    assert.equal(componentGlob('/a{/b}?/c'), '/a*/c');
    assert.equal(componentGlob('/x\\*y'), '/x\\*y');
    assert.equal(componentGlob('*.example.com'), '*.example.com');
  });

  it('narrows Chrome to URLs the pattern may match, never fewer', async () => {
    const cases: Array<[string, string[], string[]]> = [
      [
        'https://api.example.com/users/:id',
        ['https://api.example.com/users/7', 'https://api.example.com/users/7?full=1'],
        ['https://api.example.com/posts/7', 'http://api.example.com/users/7'],
      ],
      [
        '*://*:*/secret.json',
        ['http://127.0.0.1:8080/secret.json', 'https://x.test/secret.json?a'],
        ['https://x.test/other.json'],
      ],
      [
        'http://localhost:3000/search?q=*',
        ['http://localhost:3000/search?q=cats'],
        ['http://localhost:3000/search', 'http://localhost:3001/search?q=a'],
      ],
      ['https://example.com/a/(\\d+)/b', ['https://example.com/a/12/b'], ['https://example.org/a/12/b']],
    ];
    for (const [pattern, matching, other] of cases) {
      const compiled = await compileRequestPattern(pattern);
      const glob = fetchGlob(compiled);
      for (const url of matching) {
        assert.ok(compiled.test(url), `${pattern} matches ${url}`);
        assert.ok(globMatches(glob, url), `glob ${glob} of ${pattern} lets ${url} through`);
      }
      for (const url of other) {
        assert.ok(!compiled.test(url), `${pattern} does not match ${url}`);
        assert.ok(!globMatches(glob, url), `glob ${glob} of ${pattern} keeps ${url} out`);
      }
    }
  });

  it('says how to write a pattern when one is invalid', async () => {
    await assert.rejects(
      compileRequestPattern('https://exa mple.com/*'),
      /"https:\/\/exa mple\.com\/\*" is not a valid URL pattern .* Use a URL with wildcards such as/,
    );
    assert.throws(
      () => parseUrlPatternFlag('https://exa mple.com/*', 'blockedUrlPattern'),
      /--blockedUrlPattern "https:\/\/exa mple\.com\/\*" is not a valid URL pattern .* "\*\*\/ads\/\*" \(any site\)/,
    );
  });
});

describe('URL patterns as people write them', () => {
  const page = 'http://127.0.0.1:5173';

  it('rewrites globs, paths and wildcard hosts into URLPattern syntax, and leaves URLPattern alone', () => {
    const cases: Array<[string, string | undefined, string]> = [
      ['/api/price', page, `${page}/api/price`],
      ['/api/price', undefined, '*://*:*/api/price'],
      ['/api/price', 'null', '*://*:*/api/price'],
      ['**/api/price', page, '*://*:*/:_*/api/price'],
      ['*/api/price', undefined, '*://*:*/:_*/api/price'],
      ['**/*.json', undefined, '*://*:*/:_*/*.json'],
      ['*://*/api/price', page, '*://*:*/api/price'],
      ['https://*.example.com/**', undefined, 'https://*.example.com:*/*'],
      ['http://[::1]/x', undefined, 'http://[::1]/x'],
      ['*://*:8080/x', undefined, '*://*:8080/x'],
      ['https://api.example.com/users/:id', page, 'https://api.example.com/users/:id'],
      ['http://localhost:3000/search?q=*', page, 'http://localhost:3000/search?q=*'],
    ];
    for (const [input, origin, expected] of cases) {
      assert.equal(normalizeUrlPattern(input, origin), expected, `${input} on ${origin}`);
    }
  });

  it('matches what the writer meant: any port for a wildcard host, any depth for **/, the page origin for a path', async () => {
    const cases: Array<[string, string[], string[]]> = [
      ['*://*/api/price', [`${page}/api/price`, 'https://shop.test/api/price?x=1'], [`${page}/api/prices`]],
      [
        '**/api/price',
        [`${page}/api/price`, `${page}/v1/api/price`, 'https://a.test/x/y/api/price'],
        [`${page}/xapi/price`, `${page}/api/price/1`],
      ],
      ['/api/*', [`${page}/api/price`, `${page}/api/a/b?c=1`], ['http://127.0.0.1:5174/api/price', `${page}/apix`]],
      ['https://cdn.test/**', ['https://cdn.test/a/b/c.js'], ['https://cdn.test:8443/a', 'http://cdn.test/a']],
    ];
    for (const [pattern, matching, other] of cases) {
      const compiled = await compileRequestPattern(pattern, page);
      const glob = fetchGlob(compiled);
      for (const url of matching) {
        assert.ok(compiled.test(url), `${pattern} (${compiled.source}) matches ${url}`);
        assert.ok(globMatches(glob, url), `glob ${glob} of ${pattern} lets ${url} through`);
      }
      for (const url of other) {
        assert.ok(!compiled.test(url), `${pattern} (${compiled.source}) does not match ${url}`);
      }
    }
    // The flags read them the same way, without a page.
    assert.ok(parseUrlPatternFlag('**/ads/*', 'blockedUrlPattern').test('http://127.0.0.1:9000/x/ads/a.js'));
  });

  it("tells whether a pattern can match the page's origin at all", async () => {
    assert.equal(reachesOrigin(await compileRequestPattern('/api/*', page), page), true);
    assert.equal(reachesOrigin(await compileRequestPattern('**/api/*', page), page), true);
    assert.equal(reachesOrigin(await compileRequestPattern('*://*/api/*', page), page), true);
    assert.equal(reachesOrigin(await compileRequestPattern('https://api.example.com/*', page), page), false);
    assert.equal(reachesOrigin(await compileRequestPattern('http://127.0.0.1/api/*', page), page), false);
  });
});
