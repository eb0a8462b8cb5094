/**
 * A local file Chrome will read for the page (upload_file, and raw CDP
 * commands that hand Chrome files): inside the allowed roots and existing.
 * A remote browser reads its own file system: its paths are not ours to check.
 */
import {access} from 'node:fs/promises';

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
