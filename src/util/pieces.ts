/**
 * Large texts and byte strings handed to node in pieces. Node copies a string
 * it writes to a stream into one block of the C allocator (up to three bytes
 * a character), as it does the bytes of `Buffer.from(text)`; glibc maps a
 * block over 128 KB on its own, and once such a block is freed it raises that
 * threshold to the block's size for good, after which freed memory of up to
 * twice the size stays with the process (docs/internals.md, "Server memory").
 * Pieces of PIECE_CHARS characters stay below it.
 */
export const PIECE_CHARS = 32 * 1024;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * `text` cut into pieces of at most `size` characters (UTF-16 code units),
 * never between the two halves of a surrogate pair: each piece encodes alone.
 * Slices of a string share its characters (V8 copies none).
 */
export function textPieces(text: string, size = PIECE_CHARS): string[] {
  if (text.length <= size) {
    return [text];
  }
  const pieces: string[] = [];
  for (let start = 0; start < text.length;) {
    let end = Math.min(start + size, text.length);
    if (end < text.length && end - start > 1 && isHighSurrogate(text.charCodeAt(end - 1))) {
      end--;
    }
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

/**
 * The bytes of `text` (UTF-8, or base64 when `base64`) as buffers of at most
 * PIECE_CHARS * 3 bytes. Base64 is cut at a multiple of 4 characters, where
 * each piece decodes alone.
 */
export function bytePieces(text: string, base64: boolean): Buffer[] {
  return textPieces(text, base64 ? PIECE_CHARS - (PIECE_CHARS % 4) : PIECE_CHARS).map(piece =>
    Buffer.from(piece, base64 ? 'base64' : 'utf8'),
  );
}

/** Writes `text` to `stream` piece by piece; what the last write returned (false: wait for 'drain'). */
export function writeInPieces(stream: {write(piece: string): boolean}, text: string): boolean {
  let flowing = true;
  for (const piece of textPieces(text)) {
    flowing = stream.write(piece);
  }
  return flowing;
}
