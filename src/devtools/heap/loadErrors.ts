/** Turns what DevTools' loader throws into an error that says what is wrong with the file. */

const MB = 1024 * 1024;

export function describeLoadError(path: string, error: Error, maxBytes: number): Error {
  const message = error.message;
  // DevTools' progress titles carry placeholders ("Loading nodes… {PH1}%").
  const stage = /while (.+)$/
    .exec(message)?.[1]
    ?.replace(/…?\s*\{PH1\}%?/, '')
    .toLowerCase();
  if (/Token .*snapshot.* not found/.test(message)) {
    return new Error(
      `${path} is not a V8 heap snapshot (no "snapshot" header). Use a file written by take_heapsnapshot or saved from DevTools' Memory panel.`,
    );
  }
  if (/Unexpected end of input|Incomplete JSON|not found \(unexpected end/.test(message)) {
    return new Error(
      `Heap snapshot ${path} is truncated${stage ? ` (it ends while ${stage.trim()})` : ''}. Take the snapshot again with take_heapsnapshot.`,
    );
  }
  if (/out of memory/i.test(message)) {
    return new Error(
      `${message} Loading it needs more than the heap analysis limit of ${Math.round(maxBytes / MB)} MB. Close other snapshots with close_heapsnapshot, or start the server with a larger --heapSnapshotMemoryLimit.`,
    );
  }
  if (error.name === 'SyntaxError' || /JSON/.test(message)) {
    return new Error(`Heap snapshot ${path} is corrupt (${message}). Take the snapshot again with take_heapsnapshot.`);
  }
  if (/did not finish|exited|crashed/.test(message)) {
    return new Error(`${message} The snapshot was unloaded; call the tool again to retry.`);
  }
  return new Error(`Could not load heap snapshot ${path}: ${message}`);
}
