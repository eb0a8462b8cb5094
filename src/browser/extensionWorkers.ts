/**
 * The service workers of extensions, as page lists show them with
 * `--categoryExtensions`: `sw-<n>` ids, given on first sight of a worker
 * target and never reused (like page ids), from target discovery (no
 * session: listing them must not wake or hold them).
 */
import type {CdpConnection} from '../cdp/CdpConnection.js';

let nextWorkerNumber = 1;

/** One extension service worker. */
export interface ExtensionWorker {
  /** `sw-<n>`. */
  id: string;
  targetId: string;
  url: string;
}

function isExtensionWorker(type: string, url: string): boolean {
  return type === 'service_worker' && url.startsWith('chrome-extension://');
}

export class ExtensionWorkers {
  readonly #byTarget = new Map<string, ExtensionWorker>();

  /** Subscribes before target discovery starts, so that the targets it reports first are seen. */
  constructor(connection: CdpConnection) {
    const seen = ({targetInfo}: {targetInfo: {targetId: string; type: string; url: string}}) => {
      const known = this.#byTarget.get(targetInfo.targetId);
      if (known) {
        known.url = targetInfo.url;
      } else if (isExtensionWorker(targetInfo.type, targetInfo.url)) {
        const worker = {id: `sw-${nextWorkerNumber++}`, targetId: targetInfo.targetId, url: targetInfo.url};
        this.#byTarget.set(targetInfo.targetId, worker);
      }
    };
    connection.on('Target.targetCreated', seen);
    connection.on('Target.targetInfoChanged', seen);
    connection.on('Target.targetDestroyed', ({targetId}) => this.#byTarget.delete(targetId));
  }

  list(): ExtensionWorker[] {
    return [...this.#byTarget.values()];
  }

  find(id: string): ExtensionWorker | undefined {
    return this.list().find(worker => worker.id === id);
  }
}
