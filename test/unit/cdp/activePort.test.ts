import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {parseActivePort} from '../../../src/cdp/activePort.js';

describe('DevToolsActivePort', () => {
  it('names the browser WebSocket URL once both lines are written', () => {
    assert.equal(parseActivePort('9222\n/devtools/browser/abc\n'), 'ws://127.0.0.1:9222/devtools/browser/abc');
    assert.equal(parseActivePort('9222\r\n/devtools/browser/abc\r\n'), 'ws://127.0.0.1:9222/devtools/browser/abc');
    assert.equal(parseActivePort('9222\n'), undefined);
    assert.equal(parseActivePort(''), undefined);
    assert.equal(parseActivePort('9222\n/json/version\n'), undefined);
  });
});
