/**
 * What the memory tools use: checked snapshot files, the snapshots taken in
 * this session (the default when a tool gets no path), and the queries,
 * answered by the heap host process. The server process only ever holds
 * paths and the reduced results a response prints.
 */
import {existsSync} from 'node:fs';

import {heapSnapshotUrl} from '../vendor.js';
import {HeapHost} from './HeapHost.js';
import type {CloseResult, FileRef} from './hostProtocol.js';
import {
  checkSnapshotFile,
  DEFAULT_MEMORY_LIMIT_BYTES,
  loadTimeoutMs,
  MAX_LOADED_SNAPSHOTS,
  queryTimeoutMs,
} from './limits.js';
import type {QueryArgs, QueryName, QueryResult} from './results.js';

/** Bound of the whole request on top of the threads' own load and query bounds. */
const HOST_MARGIN_MS = 15_000;

export type ProgressCallback = (loaded: number, total: number) => void;

export interface Answer<T> {
  result: T;
  /** Things the agent should know (an unloaded or reloaded snapshot). */
  notes: string[];
}

type DiffQuery = 'diffSummary' | 'diffDetail' | 'leakVerdict';

export interface HeapSnapshotsOptions {
  memoryLimitBytes?: number;
  maxSnapshots?: number;
}

export class HeapSnapshots {
  readonly memoryLimitBytes: number;
  readonly #host: HeapHost;
  /** Files written by take_heapsnapshot in this session, oldest first. */
  readonly #taken: string[] = [];

  constructor(options: HeapSnapshotsOptions = {}) {
    this.memoryLimitBytes = options.memoryLimitBytes ?? DEFAULT_MEMORY_LIMIT_BYTES;
    this.#host = new HeapHost({
      modulePath: heapSnapshotUrl().href,
      maxSnapshots: options.maxSnapshots ?? MAX_LOADED_SNAPSHOTS,
      maxBytes: this.memoryLimitBytes,
    });
  }

  noteTaken(path: string): void {
    const known = this.#taken.indexOf(path);
    if (known >= 0) {
      this.#taken.splice(known, 1);
    }
    this.#taken.push(path);
  }

  /** `given`, else the snapshot taken last in this session. */
  pathOrLatest(given: string | undefined, parameter = 'filePath'): string {
    const path = given ?? this.#taken.at(-1);
    if (!path) {
      throw new Error(
        `No heap snapshot was taken in this session: pass ${parameter}, or call take_heapsnapshot first.`,
      );
    }
    return path;
  }

  /** Base and current for a compare: by default the two snapshots taken last. */
  pairOrLatest(base: string | undefined, current: string | undefined): {base: string; current: string} {
    const currentPath = this.pathOrLatest(current, 'currentFilePath');
    if (base) {
      return {base, current: currentPath};
    }
    const earlier = this.#taken.filter(p => p !== currentPath).at(-1);
    if (!earlier) {
      throw new Error(
        'Comparing needs two snapshots: pass baseFilePath, or take another snapshot with take_heapsnapshot first.',
      );
    }
    return {base: earlier, current: currentPath};
  }

  async query<Q extends Exclude<QueryName, DiffQuery>>(
    path: string,
    name: Q,
    args: QueryArgs<Q>,
    onProgress?: ProgressCallback,
  ): Promise<Answer<QueryResult<Q>>> {
    const file = await this.#check(path);
    return this.#request({op: 'query', file, name, args}, [file], onProgress);
  }

  async diff<Q extends DiffQuery>(
    basePath: string,
    currentPath: string,
    name: Q,
    args: Omit<QueryArgs<Q>, 'baseUid'>,
    onProgress?: ProgressCallback,
  ): Promise<Answer<QueryResult<Q>>> {
    const [base, file] = [await this.#check(basePath), await this.#check(currentPath)];
    return this.#request({op: 'query', file, base, name, args}, [file, base], onProgress);
  }

  /** Unloads a snapshot; false when it was not loaded. The host stops with its last snapshot. */
  async close(path: string): Promise<boolean> {
    if (!this.#host.running) {
      return false;
    }
    const {result} = await this.#host.request({op: 'close', path}, {timeoutMs: HOST_MARGIN_MS});
    const {closed, remaining} = result as CloseResult;
    if (remaining === 0) {
      await this.#host.stop();
    }
    return closed;
  }

  async dispose(): Promise<void> {
    await this.#host.stop();
  }

  async #check(path: string): Promise<FileRef> {
    const file = await checkSnapshotFile(path, this.memoryLimitBytes);
    if (!existsSync(heapSnapshotUrl())) {
      throw new Error(
        `The DevTools heap-snapshot bundle is missing (${heapSnapshotUrl().pathname}). Run "npm run build" to build it.`,
      );
    }
    return file;
  }

  async #request<T>(
    request: Parameters<HeapHost['request']>[0],
    files: FileRef[],
    onProgress?: ProgressCallback,
  ): Promise<Answer<T>> {
    // Loads, a diff's preparation and the query, each bounded in the host: this bounds the whole.
    const timeoutMs = files.reduce((ms, f) => ms + loadTimeoutMs(f.size) + 3 * queryTimeoutMs(f.size), 0);
    const {result, notes} = await this.#host.request(request, {
      timeoutMs: timeoutMs + HOST_MARGIN_MS,
      onProgress,
    });
    return {result: result as T, notes};
  }
}
