import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {hasMediaData} from '../../../src/browser/recording/chromeRecorder.js';

/** One mp4 box: a 32-bit size, the type, the content. */
function box(type: string, content: Uint8Array = new Uint8Array()): Uint8Array {
  const out = new Uint8Array(8 + content.length);
  new DataView(out.buffer).setUint32(0, out.length);
  out.set(Buffer.from(type, 'latin1'), 4);
  out.set(content, 8);
  return out;
}

const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

describe("Chrome recorder's empty-recording check", () => {
  it('tells a recording without frames from one with frames', () => {
    const ftyp = box('ftyp', Buffer.from('isom\0\0\x02\0isomiso2avc1mp41', 'latin1'));
    assert.equal(hasMediaData(ftyp), false, 'the header alone');
    assert.equal(hasMediaData(concat(ftyp, box('mdat'))), false, 'an empty mdat');
    assert.equal(hasMediaData(concat(ftyp, box('moov', new Uint8Array(20)), box('mdat', new Uint8Array(4)))), true);
    assert.equal(hasMediaData(new Uint8Array([0, 0, 0, 4])), false, 'a broken box');
  });
});
