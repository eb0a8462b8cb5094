/**
 * One copy of short strings that recur (header values, script URLs): each
 * JSON.parse of a CDP event makes its own copy of every string value, and a
 * collector that keeps 500 requests of a page keeps 500 copies of its
 * user-agent, referer and accept headers. A bounded table: when full it
 * starts afresh, so a page of all-distinct values costs at most its size.
 */
const MAX_ENTRIES = 1024;
/** Longer strings are seldom repeated and are kept as they come. */
const MAX_LENGTH = 256;

export class StringPool {
  #strings = new Map<string, string>();

  intern(value: string): string {
    if (value.length > MAX_LENGTH) {
      return value;
    }
    const known = this.#strings.get(value);
    if (known !== undefined) {
      return known;
    }
    if (this.#strings.size >= MAX_ENTRIES) {
      this.#strings = new Map();
    }
    this.#strings.set(value, value);
    return value;
  }
}
