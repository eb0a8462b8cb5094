import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {
  formatNetworkList,
  formatRequestDetail,
  formatRequestLine,
  redactHeaders,
  requestStatus,
  truncate,
} from '../../../src/response/formatNetwork.js';

describe('formatNetwork', () => {
  it('formats list lines with status, failure or pending, and cuts long URLs', () => {
    assert.equal(requestStatus({status: 302}, undefined), '302');
    assert.equal(requestStatus(undefined, 'net::ERR_FAILED'), 'net::ERR_FAILED');
    assert.equal(requestStatus(undefined, undefined), 'pending');
    assert.equal(
      formatRequestLine({id: 3, method: 'GET', url: 'http://x/a', status: '200'}),
      'reqid=3 GET http://x/a [200]',
    );
    const long = `data:text/plain,${'a'.repeat(300)}`;
    assert.equal(
      formatRequestLine({id: 1, method: 'GET', url: long, status: '200'}),
      `reqid=1 GET ${long.slice(0, 255)}... <truncated> [200]`,
    );
  });

  it('formats the list with pagination lines', () => {
    const requests = Array.from({length: 5}, (_, i) => ({
      id: i + 1,
      method: 'GET',
      url: `http://x/${i}`,
      status: '200',
    }));
    assert.equal(
      formatNetworkList(requests, 2, 1).join('\n'),
      `## Network requests
Showing 3-4 of 5 (Page 2 of 3).
Next page: 2
Previous page: 0
reqid=3 GET http://x/2 [200]
reqid=4 GET http://x/3 [200]`,
    );
    assert.equal(formatNetworkList(requests).join('\n').split('\n')[1], 'Showing 1-5 of 5 (Page 1 of 1).');
    assert.deepEqual(formatNetworkList(requests, 2, 9).slice(1, 3), [
      'Invalid page number provided. Showing first page.',
      'Showing 1-2 of 5 (Page 1 of 3).',
    ]);
    assert.deepEqual(formatNetworkList([]), ['## Network requests', 'No requests found.']);
  });

  it('formats the detail view', () => {
    assert.equal(
      formatRequestDetail({
        url: 'http://example.com/final',
        status: '200',
        requestHeaders: {accept: '*/*', 'content-type': 'application/json'},
        requestBody: {text: '{"a":1}'},
        responseHeaders: {'content-type': 'text/plain'},
        responseBody: {savedTo: '/tmp/r.network-response'},
        redirectChain: [
          {id: 2, method: 'GET', url: 'http://example.com/redirect', status: '302'},
          {id: 1, method: 'GET', url: 'http://example.com/first', status: '301'},
        ],
      }).join('\n'),
      `## Request http://example.com/final
Status: 200
### Request Headers
- accept:*/*
- content-type:application/json
### Request Body
{"a":1}
### Response Headers
- content-type:text/plain
### Response Body
Saved to /tmp/r.network-response.
### Redirect chain
reqid=2 GET http://example.com/redirect [302]
  reqid=1 GET http://example.com/first [301]`,
    );
    assert.equal(
      formatRequestDetail({
        url: 'http://x/',
        status: 'net::ERR_FAILED',
        requestHeaders: {},
        failure: 'net::ERR_FAILED',
        redirectChain: [],
      }).join('\n'),
      '## Request http://x/\nStatus: net::ERR_FAILED\n### Request Headers\n### Request failed with\nnet::ERR_FAILED',
    );
  });

  it('cuts bodies and says so', () => {
    assert.equal(truncate('abcdef', 3), 'abc... <truncated>');
    assert.equal(truncate('abc', 3), 'abc');
  });

  it('redacts every header not on the allow-list', () => {
    assert.deepEqual(
      redactHeaders({
        cookie: 'a=b',
        authorization: 'Bearer x',
        'content-type': 'text/html',
        'sec-fetch-mode': 'cors',
        Host: 'h',
      }),
      {
        cookie: '<redacted>',
        authorization: '<redacted>',
        'content-type': 'text/html',
        'sec-fetch-mode': '<redacted>',
        Host: 'h',
      },
    );
  });
});
