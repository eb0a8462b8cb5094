/**
 * Opening a checked path so that what is opened is what was checked.
 *
 * The sandbox checks a canonical path (no `..`, no symbolic link on the way)
 * against the roots. Between that check and an open by path, anyone who can
 * write in a folder on the way could swap it for a symbolic link and send the
 * open elsewhere. So the canonical path is opened one component at a time,
 * each folder relative to the descriptor of its parent and none of them
 * through a link: on Linux through /proc/self/fd/<parent>/<name> (an openat()
 * in all but name: the kernel looks the name up in the folder the descriptor
 * holds, wherever that folder is now), with O_NOFOLLOW on every step. A link
 * anywhere on the way fails the open instead of being followed. Elsewhere
 * (no /proc), the file is opened by path and then checked: its folder must
 * still resolve to itself and the opened file must be the one at the path.
 *
 * Files are also refused when they are not regular files (a FIFO would block
 * the open forever, a device is not a file) and, for reads and overwrites,
 * when they have more than one hard link (a link made inside a root to a file
 * outside would otherwise reach that file).
 */
import {constants, type Stats} from 'node:fs';
import {type FileHandle, lstat, mkdir, open, readlink, realpath, unlink} from 'node:fs/promises';
import {basename, dirname, sep} from 'node:path';

const {O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK} = constants;
/** Folders on the way are opened with these. */
const DIR_FLAGS = O_RDONLY | O_DIRECTORY | (O_NOFOLLOW ?? 0);
/** Never block on a FIFO, never follow a link at the file itself. */
const FILE_FLAGS = (O_NOFOLLOW ?? 0) | (O_NONBLOCK ?? 0);

/** An opened file: its handle, its canonical path, what fstat says, whether this open created it. */
export interface OpenedFile {
  handle: FileHandle;
  path: string;
  stats: Stats;
  created: boolean;
}

let procFd: Promise<boolean> | undefined;

/** Whether /proc/self/fd/<fd>/<name> reaches names inside an open folder (Linux). */
function hasProcFd(): Promise<boolean> {
  procFd ??= (async () => {
    let dir: FileHandle | undefined;
    try {
      dir = await open('/', DIR_FLAGS);
      const [viaFd, real] = await Promise.all([lstat(`/proc/self/fd/${dir.fd}/.`), lstat('/')]);
      return viaFd.ino === real.ino && viaFd.dev === real.dev;
    } catch {
      return false;
    } finally {
      await dir?.close();
    }
  })();
  return procFd;
}

/** A system error without the path it names (ours go through /proc/self/fd): "ENOENT: no such file or directory". */
function withoutPath(error: NodeJS.ErrnoException): NodeJS.ErrnoException {
  if (!error.code || !error.syscall) {
    return error;
  }
  const clean: NodeJS.ErrnoException = new Error(error.message.replace(/, \w+ '.*'$/s, ''), {cause: error});
  clean.code = error.code;
  return clean;
}

/** What a failed step means for the user. */
function changedError(path: string, error: NodeJS.ErrnoException): Error {
  if (error.code === 'ELOOP' || error.code === 'ENOTDIR' || error.code === 'EMLINK') {
    return new Error(
      'a folder on its way is a symbolic link or not a folder (it may have changed after the check). Give a path without symbolic links.',
      {cause: error},
    );
  }
  return withoutPath(error);
}

/** Opens the folder at canonical path `dir` without following any link; `create` makes missing folders. */
async function openFolder(dir: string, create: boolean): Promise<FileHandle> {
  let current = await open(sep, DIR_FLAGS);
  try {
    for (const name of dir.split(sep).filter(Boolean)) {
      const step = `/proc/self/fd/${current.fd}/${name}`;
      let next: FileHandle;
      try {
        next = await open(step, DIR_FLAGS);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !create) {
          throw changedError(dir, error as NodeJS.ErrnoException);
        }
        await mkdir(step).catch((e: NodeJS.ErrnoException) => {
          if (e.code !== 'EEXIST') {
            throw e;
          }
        });
        next = await open(step, DIR_FLAGS).catch((e: NodeJS.ErrnoException) => {
          throw changedError(dir, e);
        });
      }
      await current.close();
      current = next;
    }
    return current;
  } catch (error) {
    await current.close();
    throw error;
  }
}

/**
 * Opens the file at canonical path `path` with `flags` (O_CREAT may be among
 * them; O_TRUNC must not: truncate after checking), never through a link.
 * Creates missing parent folders when `createFolders`. The file must be a
 * regular file, with one link unless `allowLinks`.
 */
export async function openChecked(
  path: string,
  flags: number,
  options: {createFolders?: boolean; allowLinks?: boolean} = {},
): Promise<OpenedFile> {
  const opened = (await hasProcFd()) ? await openViaFolder(path, flags, options) : await openByPath(path, flags);
  try {
    checkFile(path, opened.stats, options.allowLinks ?? false);
    return opened;
  } catch (error) {
    await opened.handle.close();
    if (opened.created) {
      await unlink(path).catch(() => undefined);
    }
    throw error;
  }
}

function checkFile(path: string, stats: Stats, allowLinks: boolean): void {
  if (!stats.isFile()) {
    throw new Error('it is not a regular file. Give the path of a file.');
  }
  if (!allowLinks && stats.nlink > 1) {
    throw new Error(
      `it has ${stats.nlink} hard links: it may be a file outside the allowed roots. Copy it (cp makes a new file) and give the copy.`,
    );
  }
}

/** Opens `name` in its folder's descriptor: O_EXCL first when creating, to know whether this open made the file. */
async function openViaFolder(path: string, flags: number, options: {createFolders?: boolean}): Promise<OpenedFile> {
  const folder = await openFolder(dirname(path), options.createFolders ?? false);
  try {
    const leaf = `/proc/self/fd/${folder.fd}/${basename(path)}`;
    const {handle, created} = await openLeaf(leaf, flags);
    try {
      // The descriptor's own path: where the file really is (a folder could have been moved since).
      const real = await readlink(`/proc/self/fd/${handle.fd}`);
      const stats = await handle.stat();
      if (real !== path) {
        if (created) {
          await unlink(real).catch(() => undefined);
        }
        throw new Error(`it moved while it was opened (it is now at ${real}). Try again.`);
      }
      return {handle, path, stats, created};
    } catch (error) {
      await handle.close();
      throw error;
    }
  } finally {
    await folder.close();
  }
}

async function openLeaf(leaf: string, flags: number): Promise<{handle: FileHandle; created: boolean}> {
  const fail = (error: NodeJS.ErrnoException): never => {
    if (error.code === 'ELOOP') {
      throw new Error('it is a symbolic link: files are never read or written through one.', {cause: error});
    }
    throw withoutPath(error);
  };
  if (flags & O_CREAT) {
    try {
      return {handle: await open(leaf, flags | O_EXCL | FILE_FLAGS, 0o600), created: true};
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        fail(error as NodeJS.ErrnoException);
      }
    }
  }
  try {
    return {handle: await open(leaf, (flags & ~O_CREAT) | FILE_FLAGS), created: false};
  } catch (error) {
    return fail(error as NodeJS.ErrnoException);
  }
}

/** Without /proc: open by path, then check that the folder still resolves to itself and the file is the one there. */
async function openByPath(path: string, flags: number): Promise<OpenedFile> {
  if (flags & O_CREAT) {
    await mkdir(dirname(path), {recursive: true});
  }
  const {handle, created} = await openLeaf(path, flags);
  try {
    const [stats, folder, atPath] = await Promise.all([handle.stat(), realpath(dirname(path)), lstat(path)]);
    if (folder !== dirname(path) || stats.ino !== atPath.ino || stats.dev !== atPath.dev) {
      throw new Error('it changed while it was opened. Give a path without symbolic links.');
    }
    return {handle, path, stats, created};
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Opens a checked path for writing: created if missing (mode 0600, folders made), emptied only once checked. */
export async function openForOverwrite(path: string): Promise<OpenedFile> {
  const opened = await openChecked(path, O_WRONLY | O_CREAT, {createFolders: true});
  if (!opened.created) {
    try {
      await opened.handle.truncate(0);
    } catch (error) {
      await opened.handle.close();
      throw error;
    }
  }
  return opened;
}

/** Opens a checked path for reading. */
export function openForRead(path: string): Promise<OpenedFile> {
  return openChecked(path, O_RDONLY);
}

/** Opens a checked folder (that exists) without following links; undefined when it is not there. */
export async function openCheckedFolder(path: string): Promise<FileHandle | undefined> {
  if (!(await hasProcFd())) {
    return (await realpath(path).catch(() => undefined)) === path ? open(path, DIR_FLAGS) : undefined;
  }
  return openFolder(path, false).catch(() => undefined);
}
