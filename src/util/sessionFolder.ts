/**
 * A session's own folder: where its outputs go by default (screenshots,
 * reports, recordings, oversized answers), its uploads are copied to and,
 * for a session with a browser context of its own, its downloads are saved.
 * It is made on first use under the OS temp dir with a random name, mode
 * 0700 (only the server's user can enter it), and removed with everything
 * in it when the session ends (or, at the latest, when the process exits).
 * Folders left by a server that was killed are removed by the next one that
 * makes a folder.
 */
import {lstatSync, readdirSync, rmSync} from 'node:fs';
import {mkdir, mkdtemp, realpath, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';

import {debug} from './logger.js';

/** Session folders are named `cdp-mcp-session-<pid>-<random>`: the pid tells whether their server is gone. */
export const SESSION_FOLDER_PREFIX = 'cdp-mcp-session-';

let sweptStale = false;
/** Folders of sessions still open: removed at process exit if their session could not end first. */
const live = new Set<string>();

function removeLiveFolders(): void {
  for (const dir of live) {
    rmSync(dir, {recursive: true, force: true});
  }
  live.clear();
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes our user's session folders whose server process is gone. */
export function removeStaleSessionFolders(root: string = tmpdir()): void {
  let names: string[];
  try {
    names = readdirSync(root).filter(name => name.startsWith(SESSION_FOLDER_PREFIX));
  } catch {
    return;
  }
  const uid = process.getuid?.();
  for (const name of names) {
    const pid = Number(/^cdp-mcp-session-(\d+)-/.exec(name)?.[1]);
    const dir = join(root, name);
    try {
      const stat = lstatSync(dir);
      if (pid > 0 && pid !== process.pid && !isAlive(pid) && stat.isDirectory() && stat.uid === uid) {
        rmSync(dir, {recursive: true, force: true});
        debug(`removed the folder of an ended session: ${dir}`);
      }
    } catch (error) {
      debug(`could not check session folder ${dir}`, error);
    }
  }
}

export class SessionFolder {
  #dir: Promise<string> | undefined;
  #path: string | undefined;
  #disposed = false;

  /** The folder's path once made (undefined before first use and after dispose). */
  get path(): string | undefined {
    return this.#disposed ? undefined : this.#path;
  }

  /** The folder, made on first use. */
  get(): Promise<string> {
    if (this.#disposed) {
      return Promise.reject(new Error('This session has ended: its folder is gone.'));
    }
    this.#dir ??= this.#make();
    return this.#dir;
  }

  /** A subfolder of it (made 0700 if missing). */
  async sub(name: string): Promise<string> {
    const dir = join(await this.get(), name);
    await mkdir(dir, {mode: 0o700}).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') {
        throw error;
      }
    });
    return dir;
  }

  /** A fresh subfolder with a random name (outputs that must not collide). */
  async fresh(prefix: string): Promise<string> {
    return mkdtemp(join(await this.get(), prefix));
  }

  /** Removes the folder and everything in it; later uses fail. */
  async dispose(): Promise<void> {
    this.#disposed = true;
    const dir = await this.#dir?.catch(() => undefined);
    if (dir) {
      await rm(dir, {recursive: true, force: true, maxRetries: 3}).catch((error: unknown) =>
        debug(`could not remove session folder ${dir}`, error),
      );
      live.delete(dir);
    }
  }

  async #make(): Promise<string> {
    if (!sweptStale) {
      sweptStale = true;
      removeStaleSessionFolders();
      process.once('exit', removeLiveFolders);
    }
    // mkdtemp makes it 0700.
    const dir = await realpath(await mkdtemp(join(tmpdir(), `${SESSION_FOLDER_PREFIX}${process.pid}-`)));
    this.#path = dir;
    live.add(dir);
    if (this.#disposed) {
      live.delete(dir);
      await rm(dir, {recursive: true, force: true});
      throw new Error('This session has ended: its folder is gone.');
    }
    return dir;
  }
}
