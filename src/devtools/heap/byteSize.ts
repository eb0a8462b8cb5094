/** Byte sizes and ranges as the heap tools accept them: "1024", "1.5MB", "500KiB", "1MB-2MB", "-1MB", "1MB-". */

const BYTE_UNITS: Record<string, number> = {
  b: 1,
  byte: 1,
  bytes: 1,
  k: 1e3,
  kb: 1e3,
  kib: 1024,
  m: 1e6,
  mb: 1e6,
  mib: 1024 ** 2,
  g: 1e9,
  gb: 1e9,
  gib: 1024 ** 3,
  t: 1e12,
  tb: 1e12,
  tib: 1024 ** 4,
};

export interface ByteRange {
  min: number;
  max: number | undefined;
}

/** Parses "1024", "1M", "1.5GB", "500KiB" (decimal K/M/G/T, binary KiB/MiB/GiB/TiB) into bytes. */
export function parseByteSize(value: string): number {
  const trimmed = value.trim();
  if (trimmed === '') {
    throw new Error(`Invalid byte size: "${value}"`);
  }
  const match = /^(\d+(?:\.\d+)?)\s*([a-zA-Z]+)?$/.exec(trimmed);
  if (!match?.[1]) {
    throw new Error(
      `Invalid byte size format: "${value}". Expected a number or format like "1024", "1M", "1MB", "1G", "1GB".`,
    );
  }
  const amount = Number(match[1]);
  const unit = match[2];
  if (unit === undefined) {
    return Math.round(amount);
  }
  const multiplier = BYTE_UNITS[unit.toLowerCase()];
  if (multiplier === undefined) {
    throw new Error(`Unknown unit "${unit}" in "${value}". Supported units: B, KB, KiB, MB, MiB, GB, GiB, TB, TiB.`);
  }
  const bytes = Math.round(amount * multiplier);
  if (!Number.isFinite(bytes)) {
    throw new Error(`Invalid byte size: "${value}"`);
  }
  return bytes;
}

/** Parses an inclusive range: "1MB" (minimum only), "1MB-2MB", "-1MB" (0 to 1 MB), "1MB-" (no maximum). */
export function parseByteSizeRange(value: string): ByteRange {
  const trimmed = value.trim();
  if (!trimmed.includes('-')) {
    return {min: parseByteSize(trimmed), max: undefined};
  }
  const parts = trimmed.split('-');
  if (parts.length !== 2) {
    throw new Error(
      `Invalid byte size range: "${value}". Expected a size or range like "1MB", "1MB-2MB", "-1MB", or "1MB-".`,
    );
  }
  const [minText = '', maxText = ''] = parts.map(p => p.trim());
  if (minText === '' && maxText === '') {
    throw new Error(`Invalid byte size range: "${value}". At least one bound is required.`);
  }
  const min = minText === '' ? 0 : parseByteSize(minText);
  const max = maxText === '' ? undefined : parseByteSize(maxText);
  if (max !== undefined && min > max) {
    throw new Error(`Invalid byte size range: "${value}". The lower bound must not exceed the upper bound.`);
  }
  return {min, max};
}
