import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import type {Protocol} from '../../../protocol/index.js';
import {compactStack} from '../../../src/browser/console/ConsoleCollector.js';
import {
  applyResponseExtra,
  lowerCaseHeaders,
  mergeRequestHeaders,
  type NetworkRecord,
  toResponse,
} from '../../../src/browser/network/networkRecord.js';

function record(headers: Record<string, string>): NetworkRecord {
  return {requestHeaders: lowerCaseHeaders(headers), gotRequestExtra: false} as unknown as NetworkRecord;
}

describe('network records', () => {
  const sent = {Referer: 'http://a.test/', 'User-Agent': 'UA'};
  const wire = {Host: 'a.test', Referer: 'http://a.test/', 'User-Agent': 'UA', Accept: '*/*'};

  it('merges the wire headers after the sent ones, keeping their order', () => {
    const r = record(sent);
    mergeRequestHeaders(r, lowerCaseHeaders(wire));
    assert.deepEqual(Object.entries(r.requestHeaders), [
      ['referer', 'http://a.test/'],
      ['user-agent', 'UA'],
      ['host', 'a.test'],
      ['accept', '*/*'],
    ]);
    assert.equal(r.gotRequestExtra, true);
  });

  it('sets the raw response headers on the record’s own response', () => {
    const r = record(sent);
    const response = {status: 200, statusText: 'OK', headers: {A: '1'}, mimeType: 'text/plain'};
    r.response = toResponse(response as unknown as Protocol.Network.Response, lowerCaseHeaders(response.headers));
    applyResponseExtra(r, {a: '1', 'set-cookie': 'x=1'});
    assert.deepEqual(r.response, {
      status: 200,
      statusText: 'OK',
      headers: {a: '1', 'set-cookie': 'x=1'},
      mimeType: 'text/plain',
      fromCache: false,
    });
    assert.equal(r.gotResponseExtra, true);
  });
});

describe('console stacks', () => {
  it('keep the frames and async parents formatting reads', () => {
    const frame = {functionName: 'f', scriptId: '7', url: 'http://a.test/app.js', lineNumber: 3, columnNumber: 9};
    const stack = {
      callFrames: [frame],
      parent: {description: 'setTimeout', callFrames: [{...frame, functionName: ''}], parentId: {id: '1'}},
    } as Protocol.Runtime.StackTrace;
    assert.deepEqual(compactStack(stack), {
      callFrames: [frame],
      parent: {description: 'setTimeout', callFrames: [{...frame, functionName: ''}]},
    });
    assert.equal(compactStack(undefined), undefined);
  });
});
