/**
 * DevTools' heap-snapshot model as the bundle exports it. Typed loosely here;
 * the memory tools narrow what they call.
 */
export interface HeapBundle {
  setUpDevTools(): void;
  HeapSnapshotModel: Record<string, unknown>;
  Common: Record<string, unknown>;
}
