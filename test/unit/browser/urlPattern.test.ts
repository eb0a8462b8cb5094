import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {compileRequestPattern, componentGlob, fetchGlob} from '../../../src/browser/network/urlPattern.js';

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
      compileRequestPattern('/relative/*'),
      /"\/relative\/\*" is not a valid URL pattern .* Use URLPattern syntax with a full URL/,
    );
  });
});
