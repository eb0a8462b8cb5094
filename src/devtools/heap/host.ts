/**
 * The heap host: a child process of the server that keeps every loaded heap
 * snapshot, each in its own worker thread, so the server process never holds
 * snapshot data and a snapshot that exhausts memory cannot take the server
 * down. Loaded snapshots are kept by path until closed or evicted (least
 * recently used first, by count and by memory). The process exits with the
 * server (IPC disconnect).
 */
import {MessageChannel} from 'node:worker_threads';

import type {CloseResult, FileRef, HostConfig, HostReply, HostRequest} from './hostProtocol.js';
import {estimatedSnapshotBytes} from './limits.js';
import {describeLoadError} from './loadErrors.js';
import {type Eviction, SnapshotCache} from './SnapshotCache.js';
import {SnapshotThread} from './SnapshotThread.js';

const MB = 1024 * 1024;

const config = JSON.parse(process.argv[2] ?? '{}') as HostConfig;
const cache = new SnapshotCache({maxSnapshots: config.maxSnapshots, maxBytes: config.maxBytes});
const threads = new Map<string, SnapshotThread>();
/** Bases each snapshot has been diffed against (by the base's load uid). */
const diffed = new WeakMap<SnapshotThread, Set<number>>();
let nextUid = 1;

function send(reply: HostReply): void {
  process.send?.(reply);
}

function evictionNote({key, reason}: Eviction): string {
  const limit =
    reason === 'count'
      ? `the limit of ${config.maxSnapshots} loaded snapshots`
      : `the heap analysis memory limit of ${Math.round(config.maxBytes / MB)} MB`;
  return `Note: unloaded heap snapshot ${key} (least recently used) to stay within ${limit}. It is loaded again when a tool needs it.`;
}

async function unload(path: string): Promise<boolean> {
  const thread = threads.get(path);
  threads.delete(path);
  cache.delete(path);
  await thread?.terminate();
  return thread !== undefined;
}

function startLoad(file: FileRef, requestId: number): SnapshotThread {
  const thread = new SnapshotThread(file, nextUid++, {
    modulePath: config.modulePath,
    resourceLimits: {maxOldGenerationSizeMb: Math.max(64, Math.round(config.maxBytes / MB))},
    onProgress: (loaded, total) => send({id: requestId, progress: {path: file.path, loaded, total}}),
    onDeath: () => {
      if (threads.get(file.path) === thread) {
        threads.delete(file.path);
        cache.delete(file.path);
      }
    },
  });
  threads.set(file.path, thread);
  return thread;
}

/** Loads what is missing (in parallel), after unloading what must go to make room. */
async function ensureLoaded(files: FileRef[], requestId: number, notes: string[]): Promise<SnapshotThread[]> {
  const keep = new Set(files.map(f => f.path));
  for (const file of files) {
    const thread = threads.get(file.path);
    if (
      thread &&
      (thread.file.size !== file.size || thread.file.mtimeMs !== file.mtimeMs || thread.file.ino !== file.ino)
    ) {
      await unload(file.path);
      notes.push(`Note: reloaded heap snapshot ${file.path}: the file changed since it was loaded.`);
    }
  }
  const missing = [...new Map(files.filter(f => !threads.has(f.path)).map(f => [f.path, f])).values()];
  const incomingBytes = missing.reduce((sum, f) => sum + estimatedSnapshotBytes(f.size), 0);
  for (const eviction of cache.evictions(keep, missing.length, incomingBytes)) {
    await unload(eviction.key);
    notes.push(evictionNote(eviction));
  }
  for (const file of missing) {
    startLoad(file, requestId);
  }
  const loaded = await Promise.all(
    files.map(async file => {
      const thread = threads.get(file.path);
      if (!thread) {
        throw new Error(`Heap snapshot ${file.path} was unloaded while loading.`);
      }
      try {
        await thread.ready;
      } catch (error) {
        await unload(file.path);
        throw describeLoadError(file.path, error as Error, config.maxBytes);
      }
      cache.touch(file.path, thread.bytes);
      return thread;
    }),
  );
  for (const eviction of cache.evictions(keep)) {
    await unload(eviction.key);
    notes.push(evictionNote(eviction));
  }
  return loaded;
}

/** Makes `current` hold DevTools' diff against `base` (aggregates go thread to thread). */
async function prepareDiff(current: SnapshotThread, base: SnapshotThread): Promise<void> {
  const done = diffed.get(current) ?? new Set<number>();
  diffed.set(current, done);
  if (done.has(base.uid)) {
    return;
  }
  const interfaceDefinitions = (await current.query('interfaceDefinitions', undefined)) as string;
  const {port1, port2} = new MessageChannel();
  await Promise.all([current.receiveDiffBase(base.uid, port2), base.sendDiffBase(interfaceDefinitions, port1)]);
  done.add(base.uid);
  current.bytes = await current.memory();
  cache.touch(current.file.path, current.bytes);
}

async function dispatch(request: HostRequest, notes: string[]): Promise<unknown> {
  switch (request.op) {
    case 'query': {
      const files = request.base ? [request.file, request.base] : [request.file];
      const [current, base] = await ensureLoaded(files, request.id, notes);
      if (!current) {
        throw new Error('No snapshot to query.');
      }
      if (base) {
        await prepareDiff(current, base);
        return current.query(request.name, {...(request.args as object), baseUid: base.uid});
      }
      return current.query(request.name, request.args);
    }
    case 'close': {
      const closed = await unload(request.path);
      return {closed, remaining: threads.size} satisfies CloseResult;
    }
  }
}

process.on('message', (request: HostRequest) => {
  send({id: request.id, accepted: true});
  const notes: string[] = [];
  dispatch(request, notes).then(
    result => send({id: request.id, ok: true, result, notes}),
    (error: unknown) => send({id: request.id, ok: false, message: (error as Error).message ?? String(error), notes}),
  );
});
// The server is gone (even if it was SIGKILLed): so is every snapshot.
process.on('disconnect', () => process.exit(0));
