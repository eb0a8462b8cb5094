import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {browserIsLocal} from '../../../src/browser/core/browserIsLocal.js';

describe('browserIsLocal', () => {
  it('tells a local browser from a remote one', () => {
    assert.equal(browserIsLocal({}), true);
    assert.equal(browserIsLocal({browserUrl: 'http://127.0.0.1:9222'}), true);
    assert.equal(browserIsLocal({wsEndpoint: 'ws://localhost:9222/devtools/browser/x'}), true);
    assert.equal(browserIsLocal({browserUrl: 'http://[::1]:9222'}), true);
    assert.equal(browserIsLocal({wsEndpoint: 'wss://chrome.example.com/devtools/browser/x'}), false);
  });
});
