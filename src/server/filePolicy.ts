import type {Config} from '../config/options.js';
import type {Tool} from '../tools/defineTool.js';
import type {PathSandbox, SandboxOptions} from '../util/sandbox.js';

/**
 * Whose files a session works with. `owner`: the one client that started the
 * server (stdio): its roots stand as they are unless the operator gave
 * --filesystemRoot, and the OS temp dir is a root. `shared`: clients of one
 * user's server (the CLI's background server): roots only narrow the
 * operator's, the OS temp dir is a root. `private`: one of many clients
 * (HTTP): roots only narrow the operator's, and a private folder of its own
 * replaces the OS temp dir (its outputs, uploads and downloads go there).
 */
export type FilePolicy = 'owner' | 'shared' | 'private';

/** The sandbox options of a session under `policy`. */
export function sandboxOptions(
  config: Pick<Config, 'allowUnrestrictedPaths' | 'filesystemRoots' | 'secrets'>,
  policy: FilePolicy,
): SandboxOptions {
  return {
    operatorRoots: config.allowUnrestrictedPaths ? ['/'] : config.filesystemRoots,
    trustClientRoots: policy === 'owner',
    privateFolder: policy === 'private',
    secrets: config.secrets,
  };
}

/** Files: the tool's file-path arguments, checked against the session's sandbox (the checked path replaces the given one). */
export async function checkFilePaths(tool: Tool, params: Record<string, unknown>, files: PathSandbox): Promise<void> {
  for (const key of tool.filePaths ?? []) {
    const value = params[key];
    if (typeof value === 'string') {
      params[key] = await files.validate(value);
    }
  }
}
