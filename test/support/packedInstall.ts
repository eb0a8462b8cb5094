import {execFileSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, relative} from 'node:path';
import {fileURLToPath} from 'node:url';

/** The repository root (this file is build/test/support/packedInstall.js). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** Installs are kept by the hash of what npm packs; ones unused this long are removed. */
const CACHE_PREFIX = 'cdp-mcp-packed-';
const CACHE_MAX_AGE_MS = 24 * 3600 * 1000;

export interface PackedInstall {
  /** The app folder the tarball was installed into (shared by runs: do not write into it). */
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
  /** Packed and installed by this call (false: an earlier run's install of the same content). */
  fresh: boolean;
}

/**
 * Bundles (scripts/bundle.mjs, from a fresh build/), packs the package and
 * installs the tarball into an empty folder with npm, offline: what
 * `npm install cdp-mcp` gives a user. Packing and installing take most of
 * the time, so the install is kept in the temp folder by the hash of what
 * npm packs (package.json, README.md, dist/): a run with the same bundle
 * (the second Node.js version in CI, a test run again) reuses it.
 */
export function packAndInstall(): PackedInstall {
  // scripts/run-tests.mjs bundled before any file ran (CDP_MCP_TEST_BUNDLED):
  // bundling again would empty dist/ under the servers other files run from it.
  if (process.env['CDP_MCP_TEST_BUNDLED'] !== '1') {
    execFileSync(process.execPath, [join(REPO_ROOT, 'scripts/bundle.mjs'), '--quiet'], {cwd: REPO_ROOT, stdio: 'pipe'});
  }
  const hash = packedContentHash();
  const work = join(cacheRoot(), `${CACHE_PREFIX}${hash}`);
  const infoFile = join(work, 'install.json');
  pruneCache(work);
  if (existsSync(infoFile)) {
    // Marks it used, for pruneCache.
    writeFileSync(join(work, 'used'), new Date().toISOString());
    return {...(JSON.parse(readFileSync(infoFile, 'utf8')) as PackedInstall), fresh: false};
  }
  const staging = mkdtempSync(join(cacheRoot(), `${CACHE_PREFIX}staging-`));
  try {
    const info = packAndInstallInto(staging);
    // Paths as they will be once the folder has its final name.
    const moved = JSON.parse(JSON.stringify(info).replaceAll(staging, work)) as PackedInstall;
    writeFileSync(join(staging, 'install.json'), JSON.stringify(moved));
    try {
      renameSync(staging, work);
    } catch (error) {
      // Another run installed the same content meanwhile: use theirs.
      if (!existsSync(infoFile)) {
        throw error;
      }
    }
    return {...moved, fresh: true};
  } finally {
    rmSync(staging, {recursive: true, force: true});
  }
}

function packAndInstallInto(work: string): PackedInstall {
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
    fresh: true,
  };
}

/** sha256 over the paths and contents of what npm packs. */
function packedContentHash(): string {
  const hash = createHash('sha256');
  const add = (file: string) => {
    hash.update(`${relative(REPO_ROOT, file)}\0`);
    hash.update(readFileSync(file));
    hash.update('\0');
  };
  add(join(REPO_ROOT, 'package.json'));
  add(join(REPO_ROOT, 'README.md'));
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, {withFileTypes: true}).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(path);
      } else {
        add(path);
      }
    }
  };
  walk(join(REPO_ROOT, 'dist'));
  return hash.digest('hex').slice(0, 16);
}

/**
 * Where installs are kept between runs: the system's temp folder
 * (scripts/run-tests.mjs names it, having given each file a temp folder that
 * goes with the run).
 */
function cacheRoot(): string {
  return process.env['CDP_MCP_TEST_CACHE_DIR'] ?? tmpdir();
}

/** Removes other cached installs not used for a day (and staging folders of runs that died). */
function pruneCache(keep: string): void {
  const root = cacheRoot();
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    if (!name.startsWith(CACHE_PREFIX) || path === keep) {
      continue;
    }
    try {
      const used = existsSync(join(path, 'used')) ? join(path, 'used') : path;
      if (Date.now() - statSync(used).mtimeMs > CACHE_MAX_AGE_MS) {
        rmSync(path, {recursive: true, force: true});
      }
    } catch {
      // Removed by another run meanwhile.
    }
  }
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
