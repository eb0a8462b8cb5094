/**
 * Host side of one snapshot thread: starts it, waits for the load, sends
 * requests with a bound each, and turns a thread that dies (out of memory,
 * crash) or hangs into a clear error for every pending call.
 */
import {basename} from 'node:path';
import {type MessagePort, type ResourceLimits, Worker} from 'node:worker_threads';

import {heapEntryPath} from './entryPoints.js';
import type {FileRef} from './hostProtocol.js';
import {loadTimeoutMs, queryTimeoutMs} from './limits.js';
import type {ThreadReply, ThreadRequest} from './threadProtocol.js';

export interface ThreadOptions {
  modulePath: string;
  resourceLimits?: ResourceLimits;
  onProgress(loaded: number, total: number): void;
  /** Called once when the thread is gone for any reason but terminate(). */
  onDeath(message: string): void;
}

type Pending = {resolve(value: unknown): void; reject(error: Error): void; timer: NodeJS.Timeout};

export class SnapshotThread {
  readonly ready: Promise<void>;
  bytes = 0;
  #worker: Worker;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();
  #dead: string | undefined;
  #terminated = false;

  constructor(
    readonly file: FileRef,
    /** Unique per load: DevTools keys its diff cache by the base snapshot's uid. */
    readonly uid: number,
    readonly options: ThreadOptions,
  ) {
    this.#worker = new Worker(heapEntryPath('thread'), {
      workerData: {
        role: 'snapshot',
        modulePath: options.modulePath,
        path: file.path,
        size: file.size,
        dev: file.dev,
        ino: file.ino,
      },
      resourceLimits: options.resourceLimits,
      stdout: true,
      stderr: true,
    });
    // DevTools logs unreachable nodes on every load; keep it out of our output.
    this.#worker.stdout.resume();
    this.#worker.stderr.resume();
    const loadMs = loadTimeoutMs(file.size);
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#die(`Loading heap snapshot ${file.path} did not finish within ${Math.round(loadMs / 1000)} s.`);
      }, loadMs);
      this.#pending.set(0, {resolve: () => resolve(), reject, timer});
    });
    this.ready.catch(() => {});
    this.#worker.on('message', (message: ThreadReply) => this.#onMessage(message));
    this.#worker.on('error', error => this.#die(this.#describeCrash(error)));
    this.#worker.on('exit', code => this.#die(`The analysis thread of ${basename(file.path)} exited (code ${code}).`));
  }

  get dead(): string | undefined {
    return this.#dead;
  }

  query(name: string, args: unknown): Promise<unknown> {
    return this.#send(id => ({type: 'query', id, name, args}));
  }

  sendDiffBase(interfaceDefinitions: string, port: MessagePort): Promise<unknown> {
    return this.#send(id => ({type: 'sendDiffBase', id, interfaceDefinitions, port}), [port]);
  }

  receiveDiffBase(baseUid: number, port: MessagePort): Promise<unknown> {
    return this.#send(id => ({type: 'receiveDiffBase', id, baseUid, port}), [port]);
  }

  async memory(): Promise<number> {
    return (await this.#send(id => ({type: 'memory', id}))) as number;
  }

  /** Stops the thread; its memory goes back with it. */
  async terminate(): Promise<void> {
    this.#terminated = true;
    this.#rejectAll(new Error(`Heap snapshot ${this.file.path} was closed.`));
    await this.#worker.terminate();
  }

  #send(build: (id: number) => ThreadRequest, transfer: MessagePort[] = []): Promise<unknown> {
    if (this.#dead) {
      return Promise.reject(new Error(this.#dead));
    }
    const id = this.#nextId++;
    const timeoutMs = queryTimeoutMs(this.file.size);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#die(
          `Analyzing heap snapshot ${this.file.path} did not finish within ${Math.round(timeoutMs / 1000)} s; it was unloaded.`,
        );
      }, timeoutMs);
      this.#pending.set(id, {resolve, reject, timer});
      this.#worker.postMessage(build(id), transfer);
    });
  }

  #onMessage(message: ThreadReply): void {
    switch (message.type) {
      case 'progress':
        this.options.onProgress(message.loaded, message.total);
        return;
      case 'ready':
        this.bytes = message.memoryBytes;
        this.#settle(0, undefined);
        return;
      case 'loadFailed':
        this.#settle(0, undefined, new Error(message.message));
        return;
      case 'result':
        this.#settle(message.id, message.result);
        return;
      case 'error':
        this.#settle(message.id, undefined, new Error(message.message));
        return;
    }
  }

  #settle(id: number, value: unknown, error?: Error): void {
    const pending = this.#pending.get(id);
    if (!pending) {
      return;
    }
    this.#pending.delete(id);
    clearTimeout(pending.timer);
    if (error) {
      pending.reject(error);
    } else {
      pending.resolve(value);
    }
  }

  #describeCrash(error: Error & {code?: string}): string {
    if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return `Analyzing heap snapshot ${this.file.path} ran out of memory.`;
    }
    return `The analysis thread of ${basename(this.file.path)} crashed: ${error.message}`;
  }

  #die(message: string): void {
    if (this.#dead || this.#terminated) {
      return;
    }
    this.#dead = message;
    this.#rejectAll(new Error(message));
    void this.#worker.terminate();
    this.options.onDeath(message);
  }

  #rejectAll(error: Error): void {
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(error);
      this.#pending.delete(id);
    }
  }
}
