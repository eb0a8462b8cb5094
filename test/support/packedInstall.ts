import {execFileSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

/** The repository root (this file is build/test/support/packedInstall.js). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export interface PackedInstall {
  /** The empty app folder the tarball was installed into. */
  appDir: string;
  tarball: string;
  tarballBytes: number;
  /** node_modules/cdp-mcp */
  packageDir: string;
  /** Folders directly under node_modules (packages installed). */
  installed: string[];
  /** Bytes on disk under node_modules (file sizes summed). */
  installedBytes: number;
  files: number;
}

/**
 * Bundles (scripts/bundle.mjs, from a fresh build/), packs the package and
 * installs the tarball into an empty folder with npm, offline: what
 * `npm install cdp-mcp` gives a user.
 */
export function packAndInstall(): PackedInstall {
  execFileSync(process.execPath, [join(REPO_ROOT, 'scripts/bundle.mjs'), '--quiet'], {cwd: REPO_ROOT, stdio: 'pipe'});
  const work = mkdtempSync(join(tmpdir(), 'cdp-mcp-pack-'));
  const packed = execFileSync(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [info] = JSON.parse(packed) as Array<{filename: string}>;
  if (!info) {
    throw new Error(`npm pack gave no tarball: ${packed}`);
  }
  const tarball = join(work, info.filename);
  const appDir = join(work, 'app');
  mkdirSync(appDir);
  writeFileSync(join(appDir, 'package.json'), JSON.stringify({name: 'app', private: true, type: 'module'}));
  execFileSync(NPM, ['install', tarball, '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: appDir,
    stdio: 'pipe',
  });
  const modules = join(appDir, 'node_modules');
  const {bytes, files} = diskUsage(modules);
  return {
    appDir,
    tarball,
    tarballBytes: statSync(tarball).size,
    packageDir: join(modules, 'cdp-mcp'),
    installed: readdirSync(modules).filter(name => !name.startsWith('.')),
    installedBytes: bytes,
    files,
  };
}

export function diskUsage(dir: string): {bytes: number; files: number} {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, {withFileTypes: true})) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = diskUsage(path);
      bytes += inner.bytes;
      files += inner.files;
    } else if (entry.isFile()) {
      bytes += statSync(path).size;
      files++;
    }
  }
  return {bytes, files};
}

/** Files under `dir` whose text contains `needle` (case-insensitive). */
export function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  const lower = needle.toLowerCase();
  for (const entry of readdirSync(dir, {withFileTypes: true, recursive: true})) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      if (readFileSync(path, 'utf8').toLowerCase().includes(lower)) {
        found.push(path);
      }
    }
  }
  return found;
}
