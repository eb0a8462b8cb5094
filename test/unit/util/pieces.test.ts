import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {bytePieces, PIECE_CHARS, textPieces, writeInPieces} from '../../../src/util/pieces.js';

describe('pieces', () => {
  it('cuts a text into pieces of at most PIECE_CHARS, never inside a surrogate pair', () => {
    // An emoji (two UTF-16 units) straddles the first cut.
    const text = `${'a'.repeat(PIECE_CHARS - 1)}😀${'b'.repeat(PIECE_CHARS)}é`;
    const pieces = textPieces(text);
    assert.equal(pieces.join(''), text);
    assert.ok(pieces.every(piece => piece.length <= PIECE_CHARS));
    assert.equal(pieces[0], 'a'.repeat(PIECE_CHARS - 1));
    assert.ok(
      pieces.every(piece => Buffer.from(piece, 'utf8').toString('utf8') === piece),
      'each piece encodes alone',
    );
    assert.deepEqual(textPieces('short'), ['short']);
  });

  it('gives the bytes of UTF-8 and base64 text in buffers of under 128 KB', () => {
    const text = `${'x😀'.repeat(PIECE_CHARS)}end`;
    const utf8 = bytePieces(text, false);
    assert.deepEqual(Buffer.concat(utf8), Buffer.from(text, 'utf8'));
    assert.ok(utf8.length > 1 && utf8.every(piece => piece.length < 128 * 1024));
    const bytes = Buffer.from(Array.from({length: 200_000}, (_, i) => (i * 7) % 256));
    const base64 = bytePieces(bytes.toString('base64'), true);
    assert.deepEqual(Buffer.concat(base64), bytes);
    assert.ok(base64.length > 1 && base64.every(piece => piece.length < 128 * 1024));
  });

  it('writes a long text in pieces and says whether the stream wants more', () => {
    const writes: string[] = [];
    const stream = {write: (piece: string) => writes.push(piece) < 3};
    const text = 'z'.repeat(PIECE_CHARS * 3 + 5);
    assert.equal(writeInPieces(stream, text), false);
    assert.equal(writes.join(''), text);
    assert.deepEqual(
      writes.map(w => w.length),
      [PIECE_CHARS, PIECE_CHARS, PIECE_CHARS, 5],
    );
  });
});
