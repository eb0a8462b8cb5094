import {constants} from 'node:fs';
import {type FileHandle, lstat, mkdir, mkdtemp, open, realpath, rm, unlink} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {basename, dirname, extname, isAbsolute, join, resolve, sep} from 'node:path';
import {finished} from 'node:stream/promises';
import {fileURLToPath} from 'node:url';

/** Temp folders we create are named like this (the reference uses chrome-devtools-mcp-). */
const TEMP_PREFIX = 'cdp-mcp-';

/**
 * Where tools may write files: the MCP client's roots plus the OS temp dir.
 * Paths are canonicalised (symlinks of the longest existing ancestor resolved)
 * before the check, so neither `..` nor a symlink can lead outside a root.
 */
export class PathSandbox {
  /** Client roots as file paths; undefined until the client told us (or has no roots capability). */
  #roots: string[] | undefined;

  /**
   * @param fallbackRoots the roots when the client sends none (`--filesystemRoot`);
   *   the OS temp dir always counts.
   */
  constructor(
    readonly allowUnrestricted: boolean,
    readonly fallbackRoots: readonly string[] = [],
  ) {}

  setRoots(uris: string[] | undefined): void {
    this.#roots = uris?.map(uri => (uri.startsWith('file:') ? fileURLToPath(uri) : uri));
  }

  get roots(): string[] {
    return [...(this.#roots ?? this.fallbackRoots), tmpdir()];
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
    if (this.#roots === undefined && this.allowUnrestricted) {
      return canonical;
    }
    for (const root of this.roots) {
      const realRoot = await canonicalPath(root);
      if (
        realRoot &&
        (canonical === realRoot || canonical.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep))
      ) {
        return canonical;
      }
    }
    throw new Error(
      `Access denied: path ${path} (canonical: ${canonical}) is not within any of the configured workspace roots (${this.roots.join(', ')}). Write inside a workspace root or the temp dir.`,
    );
  }

  /**
   * Writes `data` to `path` with its extension forced to `ext` (".png"),
   * creating parent folders, never following a symlink at the file itself.
   * Returns the path written.
   */
  async save(data: Uint8Array | string, path: string, ext: string): Promise<string> {
    const {path: checked, handle} = await this.openForWrite(path, ext);
    try {
      await handle.writeFile(data);
    } catch (error) {
      throw new Error(`Could not write ${checked}: ${(error as Error).message}`, {cause: error});
    } finally {
      await handle.close();
    }
    return checked;
  }

  /**
   * Opens `path` (extension forced to `ext`) for writing, with the checks of
   * save(), for content streamed in pieces. The caller closes the handle.
   */
  async openForWrite(path: string, ext: string): Promise<{path: string; handle: FileHandle}> {
    const target = await this.validate(withExtension(path, ext));
    await mkdir(dirname(target), {recursive: true});
    // The parent may have changed between validation and mkdir: check again.
    const checked = await this.validate(target);
    try {
      const handle = await open(
        checked,
        constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
        0o600,
      );
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
    try {
      await produce(chunk => {
        stream.write(chunk);
      });
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

  /** Reads a file inside the roots; refuses one larger than `maxBytes` (and anything but a regular file). */
  async read(path: string, maxBytes: number): Promise<Buffer> {
    const checked = await this.validate(path);
    let handle;
    try {
      handle = await open(checked, constants.O_RDONLY | constants.O_NOFOLLOW);
      const stats = await handle.stat();
      if (!stats.isFile()) {
        throw new Error('it is not a regular file');
      }
      if (stats.size > maxBytes) {
        throw new Error(`it has ${stats.size} bytes, more than the ${maxBytes} allowed`);
      }
      return await handle.readFile();
    } catch (error) {
      throw new Error(`Could not read ${checked}: ${(error as Error).message}`, {cause: error});
    } finally {
      await handle?.close();
    }
  }

  /** A fresh private temp folder per file, as the reference does. */
  async saveTemporary(data: Uint8Array | string, filename: string): Promise<string> {
    return this.save(data, await this.temporaryPath(filename), extname(filename));
  }

  /** A path for `filename` in a fresh private temp folder, for a file written later. */
  async temporaryPath(filename: string): Promise<string> {
    return join(await mkdtemp(join(tmpdir(), TEMP_PREFIX)), filename);
  }

  /** Removes the temp folder temporaryPath made for `path` (nothing else). */
  async discardTemporary(path: string): Promise<void> {
    const dir = dirname(path);
    if (dirname(dir) === tmpdir() && basename(dir).startsWith(TEMP_PREFIX)) {
      await rm(dir, {recursive: true, force: true});
    }
  }
}

/** Replaces any extension of `path` by `ext`. */
export function withExtension(path: string, ext: string): string {
  const current = extname(path);
  return (current ? path.slice(0, -current.length) : path) + ext;
}

/** realpath of the longest existing ancestor, with the missing tail re-appended. */
export async function canonicalPath(path: string): Promise<string | undefined> {
  const absolute = isAbsolute(path) ? resolve(path) : resolve(process.cwd(), path);
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = await realpath(current);
      return missing.length ? join(real, ...missing.reverse()) : real;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        return undefined;
      }
      // A dangling symlink could point anywhere once its target is created.
      if (
        await lstat(current).then(
          s => s.isSymbolicLink(),
          () => false,
        )
      ) {
        return undefined;
      }
      const parent = dirname(current);
      if (parent === current) {
        return undefined;
      }
      missing.push(current.slice(parent.length).replace(/^[\\/]/, ''));
      current = parent;
    }
  }
}
