import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {argumentText, consoleText, exceptionText} from '../../../src/browser/console/ConsoleCollector.js';
import {aggregationKey, describeIssue, issueVariants} from '../../../src/browser/console/issues.js';
import {NavigationBuckets} from '../../../src/browser/network/NavigationBuckets.js';
import {NO_THROTTLE, UrlPolicy} from '../../../src/browser/network/urlPolicy.js';
import {displayName} from '../../../src/browser/script/sourceMaps.js';
import {parseGeolocation, parseHeaders, parseViewport} from '../../../src/tools/emulationParams.js';

describe('NavigationBuckets', () => {
  const item = (buckets: NavigationBuckets<{id: number; approxBytes: number}>, bytes = 10) => ({
    id: buckets.nextId(),
    approxBytes: bytes,
  });

  it('keeps 3 navigations, ids never reset, carries the navigation request over', () => {
    const b = new NavigationBuckets<{id: number; approxBytes: number}>({maxItems: 100, maxBytes: 1e9});
    for (let i = 0; i < 3; i++) {
      b.add(item(b));
    }
    b.split(2);
    assert.deepEqual(
      b.current().map(x => x.id),
      [3],
    );
    b.add(item(b));
    b.split();
    b.split();
    assert.equal(b.navigationCount, 3);
    assert.deepEqual(
      b.list(true).map(x => x.id),
      [3, 4],
    );
    assert.deepEqual(b.list(false), []);
    assert.equal(b.findById(1), undefined);
    assert.equal(b.nextId(), 5);
  });

  it('drops the oldest beyond the item and byte bounds', () => {
    const b = new NavigationBuckets<{id: number; approxBytes: number}>({maxItems: 3, maxBytes: 100});
    for (let i = 0; i < 5; i++) {
      b.add(item(b));
    }
    assert.deepEqual(
      b.current().map(x => x.id),
      [3, 4, 5],
    );
    b.add(item(b, 95));
    assert.deepEqual(
      b.current().map(x => x.id),
      [6],
    );
    b.add(item(b, 500));
    assert.deepEqual(
      b.current().map(x => x.id),
      [7],
      'the newest item stays even when larger than the budget',
    );
  });
});

describe('console text', () => {
  it('renders arguments as the reference does', () => {
    assert.equal(
      consoleText([
        {type: 'string', value: 'hello'},
        {type: 'number', value: 1, description: '1'},
        {type: 'boolean', value: true},
        {type: 'object', subtype: 'null', value: null},
        {type: 'undefined'},
        {type: 'object', className: 'Object', objectId: '1'},
        {type: 'object', subtype: 'array', className: 'Array', objectId: '2'},
        {type: 'function', className: 'Function', objectId: '3'},
        {type: 'bigint', unserializableValue: '10n'},
        {type: 'number', unserializableValue: '-0'},
        {
          type: 'object',
          subtype: 'error',
          className: 'Error',
          description: 'Error: boom\n    at x (a.js:1:1)',
          objectId: '4',
        },
      ]),
      'hello 1 true   [object Object] [array Array] [function Function] 10 0 Error: boom',
    );
    assert.equal(argumentText({type: 'number', unserializableValue: 'NaN'}), 'NaN');
  });

  it('says what was thrown in uncaught errors and rejections', () => {
    const details = (text: string, exception?: object) =>
      ({exceptionId: 1, text, lineNumber: 0, columnNumber: 0, exception}) as never;
    assert.equal(
      exceptionText(
        details('Uncaught', {
          type: 'object',
          subtype: 'error',
          objectId: '1',
          description: 'TypeError: x is undefined\n    at f (a.js:1:2)',
        }),
      ),
      'Uncaught TypeError: x is undefined',
    );
    assert.equal(
      exceptionText(
        details('Uncaught (in promise)', {type: 'object', subtype: 'error', objectId: '1', description: 'Error: rej'}),
      ),
      'Uncaught (in promise) Error: rej',
    );
    assert.equal(exceptionText(details('Uncaught', {type: 'string', value: 'plain'})), 'Uncaught plain');
    assert.equal(
      exceptionText(details('Uncaught SyntaxError: Unexpected token', undefined)),
      'Uncaught SyntaxError: Unexpected token',
    );
  });
});

describe('issues', () => {
  it('titles and groups issues by code and kind', () => {
    const cors = {
      corsErrorStatus: {corsError: 'MissingAllowOriginHeader', failedParameter: ''},
      isWarning: false,
      request: {requestId: '1', url: 'http://x/'},
    };
    const variants = issueVariants(cors);
    assert.deepEqual(variants, ['MissingAllowOriginHeader']);
    assert.equal(describeIssue('CorsIssue', variants).title, 'CORS response has no Access-Control-Allow-Origin header');
    assert.equal(describeIssue('CorsIssue', ['Other']).title, 'A cross-origin request was blocked by CORS');
    assert.equal(describeIssue('BrandNewIssue', []).title, 'Brand New problem');
    assert.notEqual(
      aggregationKey('GenericIssue', ['FormLabelForNameError']),
      aggregationKey('GenericIssue', ['FormDuplicateIdForInputError']),
    );
  });
});

describe('displayName', () => {
  it('shows what DevTools shows for a script location', () => {
    assert.equal(displayName('http://h:1/static/app.js?v=1'), 'app.js?v=1');
    assert.equal(displayName('http://h:1/'), '(index)');
    assert.equal(displayName('', '42'), 'VM42');
    assert.equal(displayName('webpack/src/evalname.js'), 'evalname.js');
    assert.equal(displayName(`http://h/${'x'.repeat(400)}.js`).length, 149);
  });
});

describe('UrlPolicy', () => {
  it('answers with block and allow lists', async () => {
    const blocked = new UrlPolicy(['*://*:*/secret*'], []);
    assert.equal(await blocked.isAllowed('http://a.test:80/secret.json'), false);
    assert.equal(await blocked.isAllowed('http://a.test/public'), true);
    assert.equal(await blocked.isAllowed('about:blank'), true);
    const allowed = new UrlPolicy([], ['https://ok.test/*']);
    assert.equal(await allowed.isAllowed('https://ok.test/a'), true);
    assert.equal(await allowed.isAllowed('https://other.test/a'), false);
  });

  it('builds Chrome rules: blocked first, throttling after, allow-list closes with offline', () => {
    const slow = {offline: false, latency: 100, downloadThroughput: 10, uploadThroughput: 10};
    assert.deepEqual(new UrlPolicy([], []).rules(undefined), []);
    assert.deepEqual(new UrlPolicy(['*://b/*'], []).rules(slow), [
      {urlPattern: '*://b/*', ...NO_THROTTLE, offline: true},
      {urlPattern: '', ...slow},
    ]);
    assert.deepEqual(new UrlPolicy([], ['*://a/*']).rules(undefined), [
      {urlPattern: '*://a/*', ...NO_THROTTLE},
      {urlPattern: '', ...NO_THROTTLE, offline: true},
    ]);
  });

  it('rejects invalid patterns with the flag name', async () => {
    await assert.rejects(
      new UrlPolicy([], ['https://exa mple.com/']).validate(),
      /--allowedUrlPattern "https:\/\/exa mple\.com\/" is not a valid URL pattern/,
    );
  });
});

describe('emulate parameters', () => {
  it('parses viewports', () => {
    assert.deepEqual(parseViewport('390x844x3,mobile,touch'), {
      deviceScaleFactor: 3,
      isMobile: true,
      hasTouch: true,
      isLandscape: false,
      width: 390,
      height: 844,
    });
    assert.deepEqual(parseViewport('800x600,landscape'), {
      deviceScaleFactor: 1,
      isMobile: false,
      hasTouch: false,
      isLandscape: true,
      width: 800,
      height: 600,
    });
    assert.throws(() => parseViewport('0x600'), /Invalid viewport width "0"/);
    assert.throws(() => parseViewport('800x'), /Invalid viewport height "NaN"/);
    assert.throws(() => parseViewport('800x600x-1'), /Invalid devicePixelRatio "-1"/);
  });

  it('parses geolocation and headers', () => {
    assert.deepEqual(parseGeolocation('48.85,2.35'), {latitude: 48.85, longitude: 2.35});
    assert.throws(() => parseGeolocation('10,200'), /Invalid longitude "200"/);
    assert.deepEqual(parseHeaders('{"X-A":"1","n":2}'), {'X-A': '1', n: '2'});
    assert.deepEqual(parseHeaders(''), {});
    assert.throws(() => parseHeaders('[1]'), /Headers must be a JSON object/);
    assert.throws(() => parseHeaders('{bad'), /Invalid JSON for headers: /);
  });
});
