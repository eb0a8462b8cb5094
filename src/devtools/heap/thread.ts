/**
 * A worker thread holding one parsed heap snapshot (role "snapshot"), or the
 * helper thread DevTools computes dominators and retainers in while a
 * snapshot loads (role "secondary"). The file is streamed from disk straight
 * into DevTools' loader; nothing of the snapshot leaves the thread except the
 * reduced query results.
 */
import {constants} from 'node:fs';
import {type FileHandle, open} from 'node:fs/promises';
import {getHeapStatistics} from 'node:v8';
import {MessageChannel, type MessagePort, parentPort, Worker, workerData} from 'node:worker_threads';

import type {AggregateForDiff, HeapSnapshotModule} from './devtoolsTypes.js';
import {heapEntryPath} from './entryPoints.js';
import {SnapshotQueries} from './queries.js';
import type {QueryName} from './results.js';
import type {ThreadData, ThreadReply, ThreadRequest} from './threadProtocol.js';

const READ_CHUNK_BYTES = 1 << 20;
/** At most this often a load reports how far it got. */
const PROGRESS_INTERVAL_MS = 250;

const data = workerData as ThreadData;
const port = parentPort;

async function loadModule(): Promise<HeapSnapshotModule> {
  return (await import(data.modulePath)) as HeapSnapshotModule;
}

function post(message: ThreadReply, transfer: Array<MessagePort | ArrayBuffer> = []): void {
  port?.postMessage(message, transfer);
}

async function load(module: HeapSnapshotModule): Promise<SnapshotQueries> {
  if (data.role !== 'snapshot') {
    throw new Error('not a snapshot thread');
  }
  const loader = new module.HeapSnapshotLoader.HeapSnapshotLoader({sendEvent: () => {}});
  let loaded = 0;
  let lastReport = 0;
  const file = await openChecked(data.path, data.dev, data.ino);
  for await (const chunk of file.createReadStream({encoding: 'utf8', highWaterMark: READ_CHUNK_BYTES})) {
    loader.write(chunk as string);
    loaded += Buffer.byteLength(chunk as string);
    const now = Date.now();
    if (now - lastReport >= PROGRESS_INTERVAL_MS) {
      lastReport = now;
      post({type: 'progress', loaded, total: data.size});
    }
  }
  loader.close();
  post({type: 'progress', loaded: data.size, total: data.size});
  // DevTools builds retainers and dominators on a second thread while this one
  // computes distances and aggregates.
  const {port1, port2} = new MessageChannel();
  const secondary = new Worker(heapEntryPath('thread'), {
    workerData: {role: 'secondary', modulePath: data.modulePath, port: port2} satisfies ThreadData,
    transferList: [port2],
    resourceLimits: data.resourceLimits,
    stdout: true,
    stderr: true,
  });
  const secondaryFailed = new Promise<never>((_, reject) => {
    secondary.once('error', error => reject(error));
    // It exits on its own (code 0) once it has posted its results.
    secondary.once('exit', code => code !== 0 && reject(new Error(`the helper thread stopped (exit code ${code})`)));
  });
  try {
    const snapshot = await Promise.race([loader.buildSnapshot(port1), secondaryFailed]);
    return new SnapshotQueries(snapshot);
  } finally {
    secondary.removeAllListeners();
    void secondary.terminate();
  }
}

/**
 * Opens the snapshot file the server checked: by path (this process cannot
 * be handed the server's descriptor), never through a link at the file, and
 * only if it is still the same file (device and inode), so a folder swapped
 * on the way since the check leads nowhere.
 */
async function openChecked(path: string, dev: string, ino: string): Promise<FileHandle> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  const stats = await handle.stat({bigint: true});
  if (String(stats.dev) !== dev || String(stats.ino) !== ino || stats.nlink !== 1n || !stats.isFile()) {
    await handle.close();
    throw new Error(`${path} changed after it was checked (it is another file now). Try again.`);
  }
  return handle;
}

function memoryBytes(): number {
  const stats = getHeapStatistics();
  return stats.used_heap_size + stats.external_memory;
}

async function serve(queries: SnapshotQueries): Promise<void> {
  port?.on('message', (request: ThreadRequest) => {
    try {
      switch (request.type) {
        case 'query': {
          const result = queries.run(request.name as QueryName, request.args as never);
          post({type: 'result', id: request.id, result});
          break;
        }
        case 'sendDiffBase': {
          // The other thread receives these directly: they never cross the server process.
          const aggregates = queries.snapshot.aggregatesForDiff(request.interfaceDefinitions);
          request.port.postMessage(aggregates);
          request.port.close();
          post({type: 'result', id: request.id, result: null});
          break;
        }
        case 'receiveDiffBase': {
          const {port: channel, baseUid, id} = request;
          channel.once('message', (aggregates: Record<string, AggregateForDiff>) => {
            channel.close();
            try {
              queries.prepareDiff(baseUid, aggregates);
              post({type: 'result', id, result: null});
            } catch (error) {
              post({type: 'error', id, message: (error as Error).message});
            }
          });
          break;
        }
        case 'memory':
          post({type: 'result', id: request.id, result: memoryBytes()});
          break;
      }
    } catch (error) {
      post({type: 'error', id: request.id, message: (error as Error).message});
    }
  });
}

async function main(): Promise<void> {
  const module = await loadModule();
  if (data.role === 'secondary') {
    new module.HeapSnapshot.SecondaryInitManager(data.port);
    return;
  }
  try {
    const queries = await load(module);
    await serve(queries);
    post({type: 'ready', classCount: queries.classCount, memoryBytes: memoryBytes()});
  } catch (error) {
    post({type: 'loadFailed', message: (error as Error).message});
  }
}

void main();
