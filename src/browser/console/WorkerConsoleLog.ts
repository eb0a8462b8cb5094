/**
 * Console messages and uncaught errors of extension service workers, as
 * list_console_messages shows them with a serviceWorkerId. As in the
 * reference, the log is kept per extension id (not per worker: a reloaded
 * or restarted worker adds to the same log), holds the latest
 * MAX_WORKER_MESSAGES of each extension, and numbers its entries with a
 * counter of its own (the msgids do not name page messages).
 */
import type {Protocol} from '../../../protocol/index.js';
import type {CdpSession} from '../../cdp/CdpConnection.js';
import {type ConsoleApiEntry, consoleApiEntry, type ExceptionEntry, exceptionEntry} from './ConsoleCollector.js';

/** Entries kept per extension (the reference's bound). */
export const MAX_WORKER_MESSAGES = 1_000;

export type WorkerConsoleEntry = ConsoleApiEntry | ExceptionEntry;

const EXTENSION_URL = /^chrome-extension:\/\/([^/]+)/;

/** The extension id of a `chrome-extension://<id>/…` URL. */
export function extensionIdOf(url: string): string | undefined {
  return EXTENSION_URL.exec(url)?.[1];
}

export class WorkerConsoleLog {
  readonly #byExtension = new Map<string, WorkerConsoleEntry[]>();
  #nextId = 1;

  /** Collects a worker session's console calls and uncaught errors under the extension of `url`. */
  attach(session: CdpSession, url: string): () => void {
    const extensionId = extensionIdOf(url);
    if (!extensionId) {
      return () => {};
    }
    const offs = [
      session.on('Runtime.consoleAPICalled', e => this.#onConsole(extensionId, session, e)),
      session.on('Runtime.exceptionThrown', e => this.#onException(extensionId, session, e.exceptionDetails)),
    ];
    return () => offs.forEach(off => off());
  }

  /** The messages of an extension's service workers, oldest first (none for ids it never saw). */
  list(extensionId: string): readonly WorkerConsoleEntry[] {
    return this.#byExtension.get(extensionId) ?? [];
  }

  #add(extensionId: string, entry: WorkerConsoleEntry): void {
    let entries = this.#byExtension.get(extensionId);
    if (!entries) {
      entries = [];
      this.#byExtension.set(extensionId, entries);
    }
    entries.push(entry);
    if (entries.length > MAX_WORKER_MESSAGES) {
      entries.shift();
    }
  }

  #onConsole(extensionId: string, session: CdpSession, e: Protocol.Runtime.ConsoleAPICalledEvent): void {
    this.#add(extensionId, consoleApiEntry(this.#nextId++, session, e));
  }

  #onException(extensionId: string, session: CdpSession, details: Protocol.Runtime.ExceptionDetails): void {
    this.#add(extensionId, exceptionEntry(this.#nextId++, session, details));
  }
}
