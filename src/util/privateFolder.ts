/**
 * A folder of ours at a fixed, guessable path in the shared temp dir (the
 * default --downloadsDir). Anyone on the machine can create that path first:
 * as a symbolic link it would send our files wherever it points, as their
 * folder it would let them read our files. So it must be a real folder,
 * owned by us and closed to others.
 */
import {chmod, lstat, mkdir} from 'node:fs/promises';

import {errorMessage} from './async.js';

/** Owner only: downloads can hold secrets. */
const PRIVATE_MODE = 0o700;

/** Creates `dir` (owner only) or checks that it is ours; throws saying what is wrong and what to do. */
export async function ensurePrivateFolder(
  dir: string,
  {
    holds = 'downloads',
    remedy = 'Remove it, or pass --downloadsDir with a folder of yours.',
  }: {holds?: string; remedy?: string} = {},
): Promise<void> {
  await mkdir(dir, {mode: PRIVATE_MODE}).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') {
      throw new Error(`cannot create ${dir}: ${errorMessage(error)}`, {cause: error});
    }
  });
  const stat = await lstat(dir);
  if (stat.isSymbolicLink()) {
    throw new Error(`${dir} is a symbolic link, not a folder: ${holds} could be sent anywhere. ${remedy}`);
  }
  if (!stat.isDirectory()) {
    throw new Error(`${dir} is not a folder. ${remedy}`);
  }
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) {
    throw new Error(`${dir} belongs to another user (uid ${stat.uid}), who could read the ${holds}. ${remedy}`);
  }
  if (uid !== undefined && (stat.mode & 0o077) !== 0) {
    await chmod(dir, PRIVATE_MODE);
  }
}
