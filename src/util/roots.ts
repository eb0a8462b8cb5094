/**
 * Roots: the folders file tools may read and write. The operator's roots
 * (--filesystemRoot) are a ceiling the MCP client's roots can only narrow:
 * a client root inside an operator root stands as it is, an operator root
 * inside a client root stands for it, and a client root beside every
 * operator root gives nothing.
 */
import {lstat, realpath} from 'node:fs/promises';
import {dirname, isAbsolute, join, resolve, sep} from 'node:path';
import {fileURLToPath} from 'node:url';

import {debug} from './logger.js';

/** Whether canonical `path` is `root` or inside it. */
export function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** The part of `roots` inside the `ceiling` (all of them when there is no ceiling). */
export function narrowRoots(roots: readonly string[], ceiling: readonly string[] | undefined): string[] {
  if (ceiling === undefined) {
    return [...roots];
  }
  const kept = new Set<string>();
  for (const root of roots) {
    for (const limit of ceiling) {
      if (isInside(root, limit)) {
        kept.add(root);
      } else if (isInside(limit, root)) {
        kept.add(limit);
      }
    }
  }
  return [...kept];
}

/** The canonical folder of a client's root URI; undefined (and logged) for one that is not a local file URL. */
export async function clientRootPath(uri: string): Promise<string | undefined> {
  let path: string;
  try {
    path = fileURLToPath(uri);
  } catch (error) {
    debug(`ignoring the client root ${uri}: not a local file: URL`, error);
    return undefined;
  }
  return canonicalPath(path);
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
