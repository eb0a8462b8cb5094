/**
 * Server side of the heap host process: started on the first analysis call,
 * started again if it dies, stopped when its last snapshot is closed (so the
 * memory goes back to the system) and when the server exits. Every request
 * is bounded; a host that stops answering is killed.
 */
import {type ChildProcess, fork} from 'node:child_process';
import {fileURLToPath} from 'node:url';

import {debug} from '../../util/logger.js';
import type {HostConfig, HostReply, HostRequest} from './hostProtocol.js';

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
type Request = WithoutId<HostRequest>;

export interface HostAnswer {
  result: unknown;
  notes: string[];
}

export interface RequestOptions {
  timeoutMs: number;
  onProgress?: (loaded: number, total: number) => void;
}

interface Pending {
  /** The host process the request went to. */
  child: ChildProcess;
  message: HostRequest;
  /** The host confirmed it got the request. */
  accepted: boolean;
  resolve(answer: HostAnswer): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  onProgress?: (loaded: number, total: number) => void;
}

/** How long the host may take to exit before it is killed. */
const EXIT_GRACE_MS = 2_000;

export class HeapHost {
  #child: ChildProcess | undefined;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();

  constructor(readonly config: HostConfig) {}

  get running(): boolean {
    return this.#child !== undefined;
  }

  request(request: Request, options: RequestOptions): Promise<HostAnswer> {
    const id = this.#nextId++;
    return new Promise<HostAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#fail(
          id,
          `The heap analysis process did not answer within ${Math.round(options.timeoutMs / 1000)} s and was restarted; loaded snapshots were unloaded.`,
        );
      }, options.timeoutMs);
      const child = this.#child ?? this.#start();
      const message = {...request, id};
      this.#pending.set(id, {child, message, accepted: false, resolve, reject, timer, onProgress: options.onProgress});
      this.#send(child, message);
    });
  }

  #send(child: ChildProcess, message: HostRequest): void {
    child.send(message, error => {
      if (error) {
        debug('heap host: request not delivered', error.message);
        // The exit handler sends it again to a new host (it was never accepted).
        child.kill('SIGKILL');
      }
    });
  }

  /** Stops the host (its snapshots go with it). */
  async stop(): Promise<void> {
    const child = this.#child;
    if (!child) {
      return;
    }
    this.#child = undefined;
    this.#rejectAll('The heap analysis process was stopped.', child);
    const exited = new Promise<void>(resolve => child.once('exit', () => resolve()));
    child.disconnect?.();
    const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }

  #start(): ChildProcess {
    const entry = fileURLToPath(new URL('./host.js', import.meta.url));
    const child = fork(entry, [JSON.stringify(this.config)], {
      serialization: 'advanced',
      // Never the server's stdout: it carries the MCP protocol.
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      execArgv: [],
    });
    this.#child = child;
    child.stdout?.on('data', (chunk: Buffer) => debug('heap host:', chunk.toString().trimEnd()));
    child.stderr?.on('data', (chunk: Buffer) => debug('heap host:', chunk.toString().trimEnd()));
    child.on('message', (reply: HostReply) => this.#onReply(reply));
    child.on('error', error => this.#exited(child, `could not run: ${error.message}`));
    child.on('exit', (code, signal) =>
      this.#exited(child, signal ? `was killed (${signal})` : `exited (code ${code})`),
    );
    return child;
  }

  #onReply(reply: HostReply): void {
    const pending = this.#pending.get(reply.id);
    if (!pending) {
      return;
    }
    if ('accepted' in reply) {
      pending.accepted = true;
      return;
    }
    if ('progress' in reply) {
      pending.onProgress?.(reply.progress.loaded, reply.progress.total);
      return;
    }
    this.#pending.delete(reply.id);
    clearTimeout(pending.timer);
    if (reply.ok) {
      pending.resolve({result: reply.result, notes: reply.notes});
    } else {
      pending.reject(Object.assign(new Error(reply.message), {notes: reply.notes}));
    }
  }

  #exited(child: ChildProcess, how: string): void {
    if (this.#child === child) {
      this.#child = undefined;
    }
    debug(`heap host ${how}`);
    // Requests it never got go to a new host; those it was working on fail (they may be why it died).
    for (const pending of this.#pending.values()) {
      if (pending.child === child && !pending.accepted) {
        pending.child = this.#child ?? this.#start();
        this.#send(pending.child, pending.message);
      }
    }
    this.#rejectAll(
      `The heap analysis process ${how}, probably out of memory; loaded snapshots were unloaded. Call the tool again to reload the snapshot, or close other snapshots first.`,
      child,
    );
  }

  /** A request timed out: its host is stuck, so it goes, with everything sent to it. */
  #fail(id: number, message: string): void {
    const child = this.#pending.get(id)?.child;
    if (!child) {
      return;
    }
    if (this.#child === child) {
      this.#child = undefined;
    }
    child.kill('SIGKILL');
    this.#rejectAll(message, child);
  }

  #settleFailed(id: number, message: string): void {
    const pending = this.#pending.get(id);
    if (pending) {
      this.#pending.delete(id);
      clearTimeout(pending.timer);
      pending.reject(new Error(message));
    }
  }

  /** Fails the requests that went to `child`. */
  #rejectAll(message: string, child: ChildProcess): void {
    for (const [id, pending] of this.#pending) {
      if (pending.child === child) {
        this.#settleFailed(id, message);
      }
    }
  }
}
