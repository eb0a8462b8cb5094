/**
 * A local file Chrome will read for the page (upload_file, and raw CDP
 * commands that hand Chrome files): inside the allowed roots and existing.
 * A remote browser reads its own file system: its paths are not ours to check.
 */
import {access, stat} from 'node:fs/promises';

import {browserIsLocal} from '../browser/core/browserIsLocal.js';
import type {Config} from '../config/options.js';
import type {ToolFiles} from './context.js';

/** The path to hand Chrome; throws saying what is wrong. */
export async function checkedReadPath(files: ToolFiles, config: Config, path: string): Promise<string> {
  if (!browserIsLocal(config)) {
    return path;
  }
  const checked = await files.validate(path);
  await access(checked).catch(() => {
    throw new Error(`File not found: ${path}. Give the path of an existing file.`);
  });
  return checked;
}

/**
 * What to hand Chrome for a local file or folder that a raw command makes it
 * read later: a private copy of a file (made from what was checked, as
 * upload_file hands it, so a swap after the check reaches nothing), the
 * checked path of a folder (an unpacked extension, as install_extension takes it).
 */
export async function pathForChrome(files: ToolFiles, config: Config, path: string): Promise<string> {
  const checked = await checkedReadPath(files, config, path);
  if (!browserIsLocal(config) || (await stat(checked)).isDirectory()) {
    return checked;
  }
  return files.privateCopy(checked);
}
