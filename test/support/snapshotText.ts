import assert from 'node:assert/strict';

/** uid of the first line matching `pattern` in a snapshot text (fails the test when there is none). */
export function uidOf(text: string, pattern: RegExp): string {
  const line = text.split('\n').find(l => pattern.test(l));
  const uid = line && /uid=(\d+_\d+)/.exec(line)?.[1];
  assert.ok(uid, `no line matching ${pattern} in:\n${text}`);
  return uid;
}
