import {createWriteStream} from 'node:fs';
import {type FileHandle, mkdtemp, rm, unlink, utimes} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {basename, dirname, extname, join} from 'node:path';
import {finished, pipeline} from 'node:stream/promises';
import {promisify} from 'node:util';

import {canonicalPath, clientRootPath, isInside, narrowRoots} from './roots.js';
import {type OpenedFile, openForOverwrite, openForRead} from './safeOpen.js';
import type {Secrets} from './secrets.js';
import {SessionFolder} from './sessionFolder.js';

export {canonicalPath} from './roots.js';

/** Temp folders we create in the OS temp dir are named like this (the reference uses chrome-devtools-mcp-). */
const TEMP_PREFIX = 'cdp-mcp-';
/** What mkdtemp makes of TEMP_PREFIX: nothing else is ever removed as a temp folder. */
const TEMP_FOLDER = /^cdp-mcp-[A-Za-z0-9]{6}$/;
/** Fresh output folders inside a session folder. */
const OUTPUT_PREFIX = 'out-';
const OUTPUT_FOLDER = /^out-[A-Za-z0-9]{6}$/;

export interface SandboxOptions {
  /**
   * The operator's roots (--filesystemRoot, canonical; `/` for
   * --allowUnrestrictedPaths): the roots when the client sends none, and
   * the ceiling its roots are narrowed to.
   */
  operatorRoots?: readonly string[];
  /**
   * The client is the operator (the stdio client of a server started
   * without --filesystemRoot): its roots stand as they are. Otherwise,
   * without operator roots, client roots give nothing.
   */
  trustClientRoots?: boolean;
  /**
   * The session's own folder replaces the OS temp dir: as a root, and as
   * where outputs go by default (HTTP sessions). Without it the OS temp dir
   * is a root, and default outputs go to fresh folders there (as the
   * reference does).
   */
  privateFolder?: boolean;
  /** --secrets: their values are redacted from every file written (images and videos aside: pixels). */
  secrets?: Secrets;
}

/** Files whose bytes are pixels: nothing in them is text to redact (and replacing bytes would break them). */
const PIXEL_FILES = new Set(['.png', '.jpg', '.jpeg', '.webp', '.gif', '.mp4', '.webm']);

/**
 * Where tools may read and write files: the roots (the operator's, narrowed
 * by the client's), plus the session's own folder (or the OS temp dir).
 * Paths are canonicalised (symlinks of the longest existing ancestor
 * resolved) before the check, so neither `..` nor a symlink can lead outside
 * a root; then the canonical path is opened without following any link
 * (util/safeOpen), so a folder swapped after the check cannot either.
 */
export class PathSandbox {
  /** The session's own folder (made on first use, removed by dispose()). */
  readonly folder = new SessionFolder();
  /** The client's roots, canonical and narrowed; undefined until the client told us (or when it has none). */
  #clientRoots: string[] | undefined;

  constructor(readonly options: SandboxOptions = {}) {}

  /** The roots client roots are narrowed to; undefined when they stand as they are. */
  get ceiling(): readonly string[] | undefined {
    const given = this.options.operatorRoots ?? [];
    if (given.length) {
      return given;
    }
    return this.options.trustClientRoots ? undefined : [];
  }

  /** Takes the client's roots (file: URIs); undefined: it has none. */
  async setRoots(uris: string[] | undefined): Promise<void> {
    if (uris === undefined) {
      this.#clientRoots = undefined;
      return;
    }
    const paths = (await Promise.all(uris.map(clientRootPath))).filter((p): p is string => p !== undefined);
    this.#clientRoots = narrowRoots(paths, this.ceiling);
  }

  /** The session's own root: its folder (once made) or the OS temp dir. */
  get ownRoot(): string | undefined {
    return this.options.privateFolder ? this.folder.path : tmpdir();
  }

  get roots(): string[] {
    const own = this.ownRoot;
    return [...(this.#clientRoots ?? this.options.operatorRoots ?? []), ...(own ? [own] : [])];
  }

  /** Returns the canonical absolute path, or throws when it is outside every root. */
  async validate(path: string): Promise<string> {
    if (typeof path !== 'string' || path.length === 0) {
      throw new Error('A file path must be a non-empty string.');
    }
    if (path.includes('\0')) {
      throw new Error('Access denied: the path contains a NUL character.');
    }
    const canonical = await canonicalPath(path);
    if (canonical === undefined) {
      throw new Error(`Access denied: Cannot resolve base path for ${path}.`);
    }
    for (const root of this.roots) {
      const realRoot = await canonicalPath(root);
      if (realRoot && isInside(canonical, realRoot)) {
        return canonical;
      }
    }
    const own = this.options.privateFolder ? "this session's folder" : 'the temp dir';
    throw new Error(
      `Access denied: path ${path} (canonical: ${canonical}) is not within any of the configured workspace roots (${this.roots.join(', ') || 'none yet'}). Write inside a workspace root or ${own}.`,
    );
  }

  /**
   * Writes `data` to `path` with its extension forced to `ext` (".png"),
   * creating parent folders, never through a link. Returns the path written.
   */
  async save(data: Uint8Array | string, path: string, ext: string): Promise<string> {
    const {path: checked, handle} = await this.openForWrite(path, ext);
    try {
      await handle.writeFile(await this.#redacted(data, checked));
    } catch (error) {
      throw new Error(`Could not write ${checked}: ${(error as Error).message}`, {cause: error});
    } finally {
      await handle.close();
    }
    return checked;
  }

  /** `data` without the secrets' values (see SandboxOptions.secrets). */
  async #redacted(data: Uint8Array | string, path: string): Promise<Uint8Array | string> {
    const {secrets} = this.options;
    const ext = extname(path).toLowerCase();
    if (!secrets || PIXEL_FILES.has(ext)) {
      return data;
    }
    if (typeof data === 'string') {
      return secrets.redact(data);
    }
    if (ext === '.gz') {
      // node:zlib is loaded here, not at the server's start.
      const {gunzip, gzip} = await import('node:zlib');
      const plain = await promisify(gunzip)(data).catch(() => undefined);
      return plain ? promisify(gzip)(secrets.redactBytes(plain)) : secrets.redactBytes(data);
    }
    return secrets.redactBytes(data);
  }

  /**
   * Opens `path` (extension forced to `ext`) for writing, with the checks of
   * save(), for content streamed in pieces. The caller closes the handle.
   */
  async openForWrite(path: string, ext: string): Promise<{path: string; handle: FileHandle}> {
    const checked = await this.validate(withExtension(path, ext));
    try {
      const {handle} = await openForOverwrite(checked);
      return {path: checked, handle};
    } catch (error) {
      throw new Error(`Could not write ${checked}: ${(error as Error).message}`, {cause: error});
    }
  }

  /**
   * Writes content produced in pieces (`produce` calls `write` per chunk) to
   * `path` with its extension forced to `ext`, with the checks of save(). The
   * file is removed when `produce` or a write fails. Returns the path written.
   */
  async saveStreamed(
    path: string,
    ext: string,
    produce: (write: (chunk: string) => void) => Promise<void>,
  ): Promise<string> {
    const {path: checked, handle} = await this.openForWrite(path, ext);
    // The stream owns the handle from here and closes it when it ends.
    const stream = handle.createWriteStream({encoding: 'utf8'});
    let writeError: Error | undefined;
    stream.on('error', error => (writeError ??= error));
    let failure: Error | undefined;
    const writer = this.options.secrets?.writer(chunk => stream.write(chunk));
    try {
      await produce(chunk => {
        if (writer) {
          writer.write(chunk);
        } else {
          stream.write(chunk);
        }
      });
      writer?.end();
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
    }
    await finished(stream.end()).catch((error: unknown) => (writeError ??= error as Error));
    failure ??= writeError && new Error(`Could not write ${checked}: ${writeError.message}`, {cause: writeError});
    if (failure) {
      await unlink(checked).catch(() => undefined);
      throw failure;
    }
    return checked;
  }

  /**
   * Opens a file inside the roots for reading (a regular file with one link,
   * never through a link). The caller closes the handle.
   */
  async openRead(path: string): Promise<OpenedFile> {
    const checked = await this.validate(path);
    try {
      return await openForRead(checked);
    } catch (error) {
      throw new Error(`Could not read ${checked}: ${(error as Error).message}`, {cause: error});
    }
  }

  /** Reads a file inside the roots; refuses one larger than `maxBytes` (and anything openRead refuses). */
  async read(path: string, maxBytes: number): Promise<Buffer> {
    const {handle, stats, path: checked} = await this.openRead(path);
    try {
      if (stats.size > maxBytes) {
        throw new Error(`Could not read ${checked}: it has ${stats.size} bytes, more than the ${maxBytes} allowed`);
      }
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }

  /**
   * A private copy of a file inside the roots, in a fresh folder of the
   * session's own folder, under the same name and modification time: what
   * another program (Chrome, for uploads) may read later, when the
   * original could have been swapped. Removed with the session's folder.
   */
  async privateCopy(path: string): Promise<string> {
    const {handle, stats, path: checked} = await this.openRead(path);
    try {
      const copy = join(await this.folder.fresh('upload-'), basename(checked));
      await pipeline(handle.createReadStream({autoClose: false}), createWriteStream(copy, {flags: 'wx', mode: 0o600}));
      await utimes(copy, stats.atime, stats.mtime);
      return copy;
    } finally {
      await handle.close();
    }
  }

  /**
   * The session's own folder: private (0700), always inside its roots,
   * removed when the session ends. For outputs a tool writes on its own
   * (an answer too large to return, for one).
   */
  outputDir(): Promise<string> {
    return this.folder.get();
  }

  /** A fresh private temp folder per file, as the reference does. */
  async saveTemporary(data: Uint8Array | string, filename: string): Promise<string> {
    return this.save(data, await this.temporaryPath(filename), extname(filename));
  }

  /** A path for `filename` in a fresh folder (the session's, or the OS temp dir's), for a file written later. */
  async temporaryPath(filename: string): Promise<string> {
    const dir = this.options.privateFolder
      ? await this.folder.fresh(OUTPUT_PREFIX)
      : await mkdtemp(join(tmpdir(), TEMP_PREFIX));
    return join(dir, filename);
  }

  /** Removes the folder temporaryPath made for `path` (nothing else). */
  async discardTemporary(path: string): Promise<void> {
    const dir = dirname(path);
    const name = basename(dir);
    const madeHere =
      (dirname(dir) === tmpdir() && TEMP_FOLDER.test(name)) ||
      (dirname(dir) === this.folder.path && OUTPUT_FOLDER.test(name));
    if (madeHere) {
      await rm(dir, {recursive: true, force: true});
    }
  }

  /** Removes the session's folder (the session ended). */
  dispose(): Promise<void> {
    return this.folder.dispose();
  }
}

/** Replaces any extension of `path` by `ext`. */
export function withExtension(path: string, ext: string): string {
  const current = extname(path);
  return (current ? path.slice(0, -current.length) : path) + ext;
}
