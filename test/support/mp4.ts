/**
 * Just enough of ISO BMFF (mp4) to check a recording in tests: the top-level
 * boxes, the file's brand, and how many video samples (frames) its movie
 * fragments or sample tables hold.
 */

export interface Mp4Box {
  type: string;
  start: number;
  size: number;
}

/** The boxes directly inside data[start, end). */
export function boxes(data: Buffer, start = 0, end = data.length): Mp4Box[] {
  const out: Mp4Box[] = [];
  let offset = start;
  while (offset + 8 <= end) {
    let size = data.readUInt32BE(offset);
    const type = data.toString('latin1', offset + 4, offset + 8);
    if (size === 1 && offset + 16 <= end) {
      size = Number(data.readBigUInt64BE(offset + 8));
    } else if (size === 0) {
      size = end - offset;
    }
    if (size < 8 || offset + size > end) {
      break;
    }
    out.push({type, start: offset, size});
    offset += size;
  }
  return out;
}

/** The major brand of the `ftyp` box that must open the file, or undefined. */
export function majorBrand(data: Buffer): string | undefined {
  const [first] = boxes(data);
  return first?.type === 'ftyp' ? data.toString('latin1', first.start + 8, first.start + 12) : undefined;
}

/** Container boxes whose children are boxes (no header fields before them). */
const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl', 'moof', 'traf', 'mvex']);

/** Total sample count: `trun` boxes of movie fragments plus `stsz` tables of the movie itself. */
export function sampleCount(data: Buffer, start = 0, end = data.length): number {
  let count = 0;
  for (const box of boxes(data, start, end)) {
    const body = box.start + 8;
    if (CONTAINERS.has(box.type)) {
      count += sampleCount(data, body, box.start + box.size);
    } else if (box.type === 'trun') {
      // version/flags (4 bytes), then sample_count.
      count += data.readUInt32BE(body + 4);
    } else if (box.type === 'stsz') {
      // version/flags, sample_size, sample_count.
      count += data.readUInt32BE(body + 8);
    }
  }
  return count;
}
