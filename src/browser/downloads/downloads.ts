/**
 * Downloads of every browser context: saved under their download guid
 * (Chrome's allowAndName, so no server-chosen name can point elsewhere),
 * renamed to their suggested file name once complete. A context of an HTTP
 * session downloads into that session's own folder (private, inside its
 * roots, removed with the session). The others (the default context: the
 * stdio client, --sharedContext) download into --downloadsDir, which must be
 * inside the allowed roots: checked when behaviour is set, before tool calls
 * (FOLDER_RECHECK_MS) and when a download begins; outside them Chrome is
 * told to deny downloads, and one that begins anyway is cancelled and marked
 * refused. The default folder, at a fixed path in the shared temp dir, must
 * also be a real folder of ours, closed to other users. Each record
 * remembers the session whose page started it; sessions see only their own.
 */
import {link, mkdir, unlink} from 'node:fs/promises';
import {basename, dirname, extname, join} from 'node:path';

import type {Protocol} from '../../../protocol/index.js';
import type {CdpConnection} from '../../cdp/CdpConnection.js';
import {DEFAULT_DOWNLOADS_DIR} from '../../config/flagTable.js';
import {deferred, errorMessage, withTimeout} from '../../util/async.js';
import {debug} from '../../util/logger.js';
import {ensurePrivateFolder} from '../../util/privateFolder.js';
import {canonicalPath} from '../../util/roots.js';

export type DownloadState = 'inProgress' | 'completed' | 'canceled' | 'refused';

export interface DownloadRecord {
  readonly id: number;
  readonly guid: string;
  readonly url: string;
  /** The name the file gets (Chrome's suggestion, made safe). */
  readonly fileName: string;
  /** The page whose frame started it, if known. */
  readonly pageId: number | undefined;
  /** The session (page owner) that page belonged to then: only it sees the download. */
  readonly ownerId: number | undefined;
  state: DownloadState;
  receivedBytes: number;
  totalBytes: number;
  /** Where the file is, once completed. */
  path: string | undefined;
  /** Why it was refused or why its file could not be renamed. */
  note: string | undefined;
}

/** Checks a folder against the allowed roots; returns its canonical path or throws saying why not. */
export type FolderCheck = (dir: string) => Promise<string>;

/** Where downloads go and how their folder is checked against the allowed roots. */
export interface DownloadOptions {
  dir: string;
  /** By default any folder that can be resolved. */
  check?: FolderCheck;
}

/** The check when no sandbox is given (embedding, tests): any existing or creatable folder. */
export async function canonicalFolder(dir: string): Promise<string> {
  const path = await canonicalPath(dir);
  if (!path) {
    throw new Error(`cannot resolve ${dir}`);
  }
  return path;
}

/** Longest kept file name (bytes matter on most file systems; characters are close enough here). */
const MAX_FILE_NAME_CHARS = 200;
/** Downloads kept in the list (oldest dropped first). */
const MAX_RECORDS = 500;
/**
 * How long a folder verdict stands for calls under the same roots. Checking
 * costs several file-system calls (0.5-14 ms on a loaded machine, as much as
 * a small page's snapshot), and calls come in bursts; new roots or a verdict
 * older than this are checked again.
 */
const FOLDER_RECHECK_MS = 2_000;

/** A suggested file name that cannot leave the folder nor hide: no separators, no leading dots, no control characters. */
export function safeFileName(suggested: string): string {
  const visible = [...suggested].map(c => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f ? '_' : c)).join('');
  const cleaned = basename(visible.replace(/[\\/]/g, '_')).replace(/^\.+/, '_');
  const name = cleaned.trim() || 'download';
  if (name.length <= MAX_FILE_NAME_CHARS) {
    return name;
  }
  const ext = extname(name).slice(0, 20);
  return name.slice(0, MAX_FILE_NAME_CHARS - ext.length) + ext;
}

export class DownloadTracker {
  readonly #records = new Map<string, DownloadRecord>();
  readonly #done = new Map<string, ReturnType<typeof deferred<void>>>();
  /** Configured contexts (undefined: the default one) and the folder of their own, if they have one. */
  readonly #contexts = new Map<string | undefined, string | undefined>();
  /** The folder each download in progress is saved to (its context's). */
  readonly #folders = new Map<string, string | undefined>();
  /** Told about every download that begins. */
  readonly #beginListeners = new Set<() => void>();
  /** Completed downloads whose file is being renamed (progress events can repeat). */
  readonly #finishing = new Set<string>();
  #nextId = 1;
  /** The canonical folder while it is allowed; undefined while downloads are denied. */
  #allowedDir: string | undefined;
  #refusal: string | undefined;
  #configured = false;
  /** The roots the last check ran under, and when. */
  #checked: {roots: string; at: number} | undefined;

  constructor(
    readonly connection: CdpConnection,
    readonly dir: string,
    readonly check: FolderCheck,
    readonly pageOfFrame: (
      frameId: string,
    ) => {id: number; browserContextId: string | undefined; ownerId: number | undefined} | undefined,
  ) {
    connection.on('Browser.downloadWillBegin', event => void this.#onBegin(event));
    connection.on('Browser.downloadProgress', event => void this.#onProgress(event));
  }

  /**
   * Sets the behaviour of a browser context (undefined: the default one);
   * idempotent. `ownDir`: a folder of the context's own (a session's private
   * folder), used as it is; otherwise the context shares --downloadsDir.
   */
  async addContext(browserContextId: string | undefined, ownDir?: string): Promise<void> {
    if (this.#contexts.has(browserContextId)) {
      return;
    }
    this.#contexts.set(browserContextId, ownDir);
    if (ownDir !== undefined) {
      await this.#apply(browserContextId);
    } else if (!this.#configured) {
      await this.refresh();
    } else {
      await this.#apply(browserContextId);
    }
  }

  /** Stops configuring a context that is gone (an ended session's). */
  forgetContext(browserContextId: string): void {
    this.#contexts.delete(browserContextId);
  }

  /**
   * Re-checks the folder against the roots (they can change; `check`: those of
   * the calling session, `roots` names them) and updates every context when
   * the verdict changed. Under the same roots a recent verdict stands.
   */
  async refresh(check: FolderCheck = this.check, roots?: string): Promise<void> {
    const now = performance.now();
    if (
      this.#configured &&
      roots !== undefined &&
      this.#checked?.roots === roots &&
      now - this.#checked.at < FOLDER_RECHECK_MS
    ) {
      return;
    }
    this.#checked = roots === undefined ? undefined : {roots, at: now};
    let allowed: string | undefined;
    let refusal: string | undefined;
    try {
      if (this.dir === DEFAULT_DOWNLOADS_DIR) {
        await ensurePrivateFolder(this.dir);
      }
      allowed = await check(this.dir);
      await mkdir(allowed, {recursive: true});
    } catch (error) {
      allowed = undefined;
      refusal = `--downloadsDir ${this.dir} is not allowed: ${errorMessage(error)}`;
    }
    if (this.#configured && allowed === this.#allowedDir) {
      return;
    }
    this.#allowedDir = allowed;
    this.#refusal = refusal;
    this.#configured = true;
    const shared = [...this.#contexts].filter(([, own]) => own === undefined).map(([id]) => id);
    await Promise.all(shared.map(id => this.#apply(id)));
  }

  /** The folder a context's downloads go to; undefined while they are denied. */
  folderOf(browserContextId: string | undefined): string | undefined {
    return this.#contexts.get(browserContextId) ?? this.#allowedDir;
  }

  async #apply(browserContextId: string | undefined): Promise<void> {
    const dir = this.folderOf(browserContextId);
    await this.connection
      .send('Browser.setDownloadBehavior', {
        behavior: dir ? 'allowAndName' : 'deny',
        ...(dir ? {downloadPath: dir} : {}),
        eventsEnabled: true,
        ...(browserContextId ? {browserContextId} : {}),
      })
      .catch((error: unknown) => debug('Browser.setDownloadBehavior failed', error));
  }

  list(): DownloadRecord[] {
    return [...this.#records.values()];
  }

  /** The id the next download will get: records from a mark on are the ones started since. */
  mark(): number {
    return this.#nextId;
  }

  since(mark: number): DownloadRecord[] {
    return this.list().filter(r => r.id >= mark);
  }

  /** Waits (up to `timeoutMs`) until `count` downloads of page `pageId` have begun since `mark`. */
  async waitForBegun(mark: number, pageId: number, count: number, timeoutMs: number): Promise<void> {
    const begun = () => this.since(mark).filter(r => r.pageId === pageId).length >= count;
    if (begun()) {
      return;
    }
    const waiter = deferred<void>();
    const check = () => {
      if (begun()) {
        waiter.resolve();
      }
    };
    this.#beginListeners.add(check);
    try {
      await withTimeout(waiter.promise, timeoutMs, 'download did not begin').catch(() => undefined);
    } finally {
      this.#beginListeners.delete(check);
    }
  }

  /** Waits (up to `timeoutMs`) until none of `records` is still in progress. */
  async settle(records: DownloadRecord[], timeoutMs: number): Promise<void> {
    const pending = records.flatMap(r => {
      const done = r.state === 'inProgress' ? this.#done.get(r.guid) : undefined;
      return done ? [done.promise] : [];
    });
    await withTimeout(Promise.all(pending), timeoutMs, 'downloads still running').catch(() => undefined);
  }

  async #onBegin({guid, url, suggestedFilename, frameId}: Protocol.Browser.DownloadWillBeginEvent): Promise<void> {
    const page = this.pageOfFrame(frameId);
    debug(`download ${guid} begins: ${url}`);
    const record: DownloadRecord = {
      id: this.#nextId++,
      guid,
      url,
      fileName: safeFileName(suggestedFilename),
      pageId: page?.id,
      ownerId: page?.ownerId,
      state: 'inProgress',
      receivedBytes: 0,
      totalBytes: 0,
      path: undefined,
      note: undefined,
    };
    this.#records.set(guid, record);
    this.#done.set(guid, deferred<void>());
    this.#trim();
    const ownDir = this.#contexts.get(page?.browserContextId);
    this.#folders.set(guid, ownDir);
    if (ownDir !== undefined) {
      this.#notifyBegun();
      return;
    }
    // Chrome denies downloads while the folder is outside the roots: say so at once.
    const denied = this.#configured && !this.#allowedDir;
    if (denied) {
      this.#finish(record, 'refused', this.#refusal);
    }
    this.#notifyBegun();
    if (denied) {
      return;
    }
    // The roots may have changed since the last check.
    await this.refresh().catch(() => undefined);
    if (!this.#allowedDir) {
      this.#finish(record, 'refused', this.#refusal);
      const context = page?.browserContextId ? {browserContextId: page.browserContextId} : {};
      await this.connection.send('Browser.cancelDownload', {guid, ...context}).catch(() => undefined);
    }
  }

  #notifyBegun(): void {
    for (const listener of [...this.#beginListeners]) {
      listener();
    }
  }

  async #onProgress({guid, state, receivedBytes, totalBytes, filePath}: Protocol.Browser.DownloadProgressEvent) {
    const record = this.#records.get(guid);
    if (!record || record.state !== 'inProgress' || this.#finishing.has(guid)) {
      return;
    }
    record.receivedBytes = receivedBytes;
    record.totalBytes = totalBytes;
    if (state === 'canceled') {
      this.#finish(record, 'canceled');
    } else if (state === 'completed') {
      this.#finishing.add(guid);
      const dir = this.#folders.get(guid) ?? this.#allowedDir;
      const saved = filePath ?? (dir ? join(dir, guid) : undefined);
      // Renamed only inside the folder it was saved to: never moved into another context's folder.
      const inPlace = saved !== undefined && dir !== undefined && dirname(saved) === dir;
      record.path = inPlace ? await this.#rename(saved, dir, record) : saved;
      this.#finishing.delete(guid);
      this.#finish(record, 'completed');
    }
  }

  /** Gives the finished file its name, without ever replacing another file: `name (2).ext` when taken. */
  async #rename(saved: string, dir: string, record: DownloadRecord): Promise<string> {
    const ext = extname(record.fileName);
    const stem = record.fileName.slice(0, record.fileName.length - ext.length);
    for (let n = 1; n < 1_000; n++) {
      const target = join(dir, n === 1 ? record.fileName : `${stem} (${n})${ext}`);
      try {
        await link(saved, target);
        await unlink(saved);
        return target;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          record.note = `kept under its download id: ${errorMessage(error)}`;
          return saved;
        }
      }
    }
    return saved;
  }

  #finish(record: DownloadRecord, state: DownloadState, note?: string): void {
    this.#folders.delete(record.guid);
    record.state = state;
    record.note ??= note;
    this.#done.get(record.guid)?.resolve();
    this.#done.delete(record.guid);
  }

  #trim(): void {
    while (this.#records.size > MAX_RECORDS) {
      const oldest = this.#records.keys().next().value;
      if (oldest === undefined) {
        return;
      }
      this.#records.delete(oldest);
      this.#folders.delete(oldest);
      this.#done.get(oldest)?.resolve();
      this.#done.delete(oldest);
    }
  }
}
