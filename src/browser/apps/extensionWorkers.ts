/**
 * The service workers of extensions, as page lists show them with
 * `--categoryExtensions`: `sw-<n>` ids, given on first sight of a worker
 * target and never reused (like page ids), from target discovery. Each
 * worker auto-attach hands us is kept attached with Runtime on, as the
 * reference keeps its own: its console messages go to the per-extension log
 * (list_console_messages' serviceWorkerId) and evaluate_script runs in it.
 */
import type {CdpConnection, CdpSession} from '../../cdp/CdpConnection.js';
import {type Deferred, deferred, withTimeout} from '../../util/async.js';
import {debug} from '../../util/logger.js';
import {WorkerConsoleLog} from '../console/WorkerConsoleLog.js';

let nextWorkerNumber = 1;

/** Bound of attaching to a worker we hold no session for. */
const WORKER_ATTACH_TIMEOUT_MS = 5_000;
/** Bound of the wait for a just-started worker's execution context. */
const WORKER_CONTEXT_TIMEOUT_MS = 10_000;

/** One extension service worker. */
export interface ExtensionWorker {
  /** `sw-<n>`. */
  id: string;
  targetId: string;
  url: string;
  /** Our session with it, once attached. */
  session?: CdpSession;
  /**
   * Its execution context, once Chrome reports it and the worker runs (a
   * worker paused on start has a context whose global scope is half set up).
   */
  context?: Deferred<number>;
}

/** What we need to know of a worker target. */
type WorkerTarget = {targetId: string; type: string; url: string};

export function isExtensionWorker(type: string, url: string): boolean {
  return type === 'service_worker' && url.startsWith('chrome-extension://');
}

export class ExtensionWorkers {
  readonly #byTarget = new Map<string, ExtensionWorker>();
  /** Console messages of every extension's workers, by extension id. */
  readonly log = new WorkerConsoleLog();

  /** Subscribes before target discovery starts, so that the targets it reports first are seen. */
  constructor(readonly connection: CdpConnection) {
    const seen = ({targetInfo}: {targetInfo: WorkerTarget}) => {
      this.#record(targetInfo);
    };
    connection.on('Target.targetCreated', seen);
    connection.on('Target.targetInfoChanged', seen);
    connection.on('Target.targetDestroyed', ({targetId}) => this.#byTarget.delete(targetId));
  }

  #record(targetInfo: WorkerTarget): ExtensionWorker | undefined {
    const known = this.#byTarget.get(targetInfo.targetId);
    if (known) {
      known.url = targetInfo.url;
      return known;
    }
    if (!isExtensionWorker(targetInfo.type, targetInfo.url)) {
      return undefined;
    }
    const worker = {id: `sw-${nextWorkerNumber++}`, targetId: targetInfo.targetId, url: targetInfo.url};
    this.#byTarget.set(targetInfo.targetId, worker);
    return worker;
  }

  /**
   * Takes the session auto-attach opened to an extension service worker:
   * Runtime on (Chrome replays what the worker logged before) and the worker
   * let go if it waits for us. A second session to a worker we already hold
   * is someone else's and left alone.
   */
  adopt(session: CdpSession, targetInfo: WorkerTarget, waitingForDebugger: boolean): void {
    const worker = this.#record(targetInfo);
    if (!worker || (worker.session && !worker.session.detached)) {
      return;
    }
    worker.session = session;
    const context = deferred<number>();
    worker.context = context;
    const created = deferred<number>();
    const offs = [
      this.log.attach(session, targetInfo.url),
      session.on('Runtime.executionContextCreated', e => created.resolve(e.context.id)),
    ];
    session.onDetached(() => {
      offs.forEach(off => off());
      if (worker.session === session) {
        worker.session = undefined;
        worker.context = undefined;
      }
    });
    void (async () => {
      await session.trySend('Runtime.enable');
      if (waitingForDebugger) {
        await session.trySend('Runtime.runIfWaitingForDebugger');
      }
      context.resolve(await created.promise);
    })().catch((error: unknown) => debug(`extension worker ${targetInfo.url} not set up`, error));
  }

  list(): ExtensionWorker[] {
    return [...this.#byTarget.values()];
  }

  find(id: string): ExtensionWorker | undefined {
    return this.list().find(worker => worker.id === id);
  }

  /**
   * The session and execution context of the worker listed as `id`
   * (attaching when we hold none); throws the reference's texts for unknown
   * ids and for workers that are gone or do not start.
   */
  async contextOf(id: string): Promise<{session: CdpSession; contextId: number}> {
    const worker = this.find(id);
    if (!worker) {
      throw new Error('Service worker not found.');
    }
    try {
      if (!worker.session || worker.session.detached) {
        const session = await this.connection.attachToTarget(
          worker.targetId,
          'service_worker',
          WORKER_ATTACH_TIMEOUT_MS,
        );
        if (!worker.session) {
          this.adopt(session, {targetId: worker.targetId, type: 'service_worker', url: worker.url}, false);
        }
      }
      const {session, context} = worker;
      if (!session || !context) {
        throw new Error('no session');
      }
      const contextId = await withTimeout(context.promise, WORKER_CONTEXT_TIMEOUT_MS, 'no execution context');
      return {session, contextId};
    } catch (error) {
      throw new Error('Service worker target not found.', {cause: error});
    }
  }
}
