/**
 * Server side of the heap host process: started on the first analysis call,
 * started again if it dies, stopped when its last snapshot is closed (so the
 * memory goes back to the system) and when the server exits. Every request
 * is bounded; a host that stops answering is killed. A host that never comes
 * up (its code fails to load, or it does not answer within START_TIMEOUT_MS)
 * is not started again for the same call: that call fails, saying why and
 * where the host's output was logged.
 */
import type * as childProcess from 'node:child_process';
import type {ChildProcess, ForkOptions} from 'node:child_process';
import {createRequire} from 'node:module';

import {errorLine} from '../../util/childEntry.js';
import {debug, logDestination, warn} from '../../util/logger.js';
import {heapEntryPath} from './entryPoints.js';
import type {HostConfig, HostReply, HostRequest} from './hostProtocol.js';

/**
 * node:child_process (and the modules it pulls in) is loaded on the first
 * fork, not at the server's start: most sessions never analyse a heap.
 */
const requireBuiltin = createRequire(import.meta.url);
function fork(modulePath: string, args: string[], options: ForkOptions): ChildProcess {
  return (requireBuiltin('node:child_process') as typeof childProcess).fork(modulePath, args, options);
}

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

export interface HeapHostOptions {
  /** The host's entry script (tests); default: host.js, or dist/heap-host.js in the package. */
  entry?: string;
  /** How long a new host may take to answer its first request. */
  startTimeoutMs?: number;
}

/** One host process. */
interface Host {
  child: ChildProcess;
  /** It has answered: its code loaded. */
  started: boolean;
  /** Its start failed (the requests sent to it were told why). */
  failed: boolean;
  /** The end of its stderr, quoted when it fails to start. */
  output: string;
  startTimer: NodeJS.Timeout;
}

interface Pending {
  /** The host the request went to. */
  host: Host;
  message: HostRequest;
  /** The host confirmed it got the request. */
  accepted: boolean;
  /** It went to a new host once already (the first died before getting it). */
  resent: boolean;
  resolve(answer: HostAnswer): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  onProgress?: (loaded: number, total: number) => void;
}

/** How long the host may take to exit before it is killed. */
const EXIT_GRACE_MS = 2_000;
/** Loading the host's code takes well under a second; generous for a busy machine. */
const START_TIMEOUT_MS = 30_000;
/** How much of a failed host's stderr is kept (the error is at its end). */
const OUTPUT_TAIL_CHARS = 4_000;

export class HeapHost {
  #host: Host | undefined;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();
  readonly #entry: string | undefined;
  readonly #startTimeoutMs: number;

  constructor(
    readonly config: HostConfig,
    options: HeapHostOptions = {},
  ) {
    this.#entry = options.entry;
    this.#startTimeoutMs = options.startTimeoutMs ?? START_TIMEOUT_MS;
  }

  get running(): boolean {
    return this.#host !== undefined;
  }

  request(request: Request, options: RequestOptions): Promise<HostAnswer> {
    const id = this.#nextId++;
    return new Promise<HostAnswer>((resolve, reject) => {
      let host: Host;
      try {
        host = this.#host ?? this.#start();
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      const timer = setTimeout(() => {
        this.#fail(
          id,
          `The heap analysis process did not answer within ${Math.round(options.timeoutMs / 1000)} s and was restarted; loaded snapshots were unloaded.`,
        );
      }, options.timeoutMs);
      const message = {...request, id};
      const {onProgress} = options;
      this.#pending.set(id, {host, message, accepted: false, resent: false, resolve, reject, timer, onProgress});
      this.#send(host, message);
    });
  }

  #send(host: Host, message: HostRequest): void {
    host.child.send(message, error => {
      if (error) {
        debug('heap host: request not delivered', error.message);
        // The exit handler sends it again to a new host (it was never accepted).
        host.child.kill('SIGKILL');
      }
    });
  }

  /** Stops the host (its snapshots go with it). */
  async stop(): Promise<void> {
    const host = this.#host;
    if (!host) {
      return;
    }
    this.#host = undefined;
    clearTimeout(host.startTimer);
    this.#rejectAll('The heap analysis process was stopped.', host);
    const {child} = host;
    if (child.exitCode !== null || child.signalCode !== null) {
      return;
    }
    const exited = new Promise<void>(resolve => child.once('exit', () => resolve()));
    child.disconnect?.();
    const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }

  /** Forks a host; throws when its code is missing. */
  #start(): Host {
    const child = fork(this.#entry ?? heapEntryPath('host'), [JSON.stringify(this.config)], {
      serialization: 'advanced',
      // Never the server's stdout: it carries the MCP protocol.
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      execArgv: [],
    });
    const host: Host = {child, started: false, failed: false, output: '', startTimer: undefined as never};
    host.startTimer = setTimeout(
      () => this.#startFailed(host, `it did not answer within ${Math.round(this.#startTimeoutMs / 1000)} s`),
      this.#startTimeoutMs,
    );
    this.#host = host;
    child.stdout?.on('data', (chunk: Buffer) => debug('heap host:', chunk.toString().trimEnd()));
    child.stderr?.on('data', (chunk: Buffer) => {
      host.output = (host.output + chunk.toString()).slice(-OUTPUT_TAIL_CHARS);
      debug('heap host:', chunk.toString().trimEnd());
    });
    child.on('message', (reply: HostReply) => {
      host.started = true;
      clearTimeout(host.startTimer);
      this.#onReply(reply);
    });
    child.on('error', error => this.#exited(host, `it could not run: ${error.message}`));
    // 'close', not 'exit': a host that fails to start has written all of its error by then.
    child.on('close', (code, signal) =>
      this.#exited(host, signal ? `it was killed (${signal})` : `it exited (code ${code})`),
    );
    return host;
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

  /** A host that never answered: its requests fail with what went wrong; it is not started again for them. */
  #startFailed(host: Host, how: string): void {
    if (host.started || host.failed) {
      return;
    }
    host.failed = true;
    if (this.#host === host) {
      this.#host = undefined;
    }
    clearTimeout(host.startTimer);
    host.child.kill('SIGKILL');
    const output = host.output.trim();
    warn(`The heap analysis process could not start: ${how}.${output ? ` Its output:\n${output}` : ''}`);
    const error = errorLine(output);
    this.#rejectAll(
      `The heap analysis process could not start: ${how}${error ? ` (${error})` : ''}. Its output is in ${logDestination()}.`,
      host,
    );
  }

  #exited(host: Host, how: string): void {
    if (this.#host === host) {
      this.#host = undefined;
    }
    clearTimeout(host.startTimer);
    debug(`heap host: ${how}`);
    if (!host.started) {
      this.#startFailed(host, how);
      return;
    }
    // Requests it never got go to a new host, once; those it was working on fail (they may be why it died).
    for (const [id, pending] of this.#pending) {
      if (pending.host === host && !pending.accepted && !pending.resent) {
        pending.resent = true;
        try {
          pending.host = this.#host ?? this.#start();
          this.#send(pending.host, pending.message);
        } catch (error) {
          this.#settleFailed(id, (error as Error).message);
        }
      }
    }
    this.#rejectAll(
      `The heap analysis process stopped (${how}), probably out of memory; loaded snapshots were unloaded. Call the tool again to reload the snapshot, or close other snapshots first.`,
      host,
    );
  }

  /** A request timed out: its host is stuck, so it goes, with everything sent to it. */
  #fail(id: number, message: string): void {
    const host = this.#pending.get(id)?.host;
    if (!host) {
      return;
    }
    if (this.#host === host) {
      this.#host = undefined;
    }
    host.child.kill('SIGKILL');
    this.#rejectAll(message, host);
  }

  #settleFailed(id: number, message: string): void {
    const pending = this.#pending.get(id);
    if (pending) {
      this.#pending.delete(id);
      clearTimeout(pending.timer);
      pending.reject(new Error(message));
    }
  }

  /** Fails the requests that went to `host`. */
  #rejectAll(message: string, host: Host): void {
    for (const [id, pending] of this.#pending) {
      if (pending.host === host) {
        this.#settleFailed(id, message);
      }
    }
  }
}
