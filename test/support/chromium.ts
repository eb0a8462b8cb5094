import {type ChildProcess, spawn} from 'node:child_process';
import {appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';

import {CHROME_PATH} from './mcpClient.js';

/** A headless Chromium the test starts itself (for servers that attach to it). */
export interface RunningChromium {
  port: number;
  /** ws://127.0.0.1:<port>/devtools/browser/<id> */
  browserWsUrl: string;
  process: ChildProcess;
  alive(): boolean;
  kill(): void;
}

const READY_TIMEOUT_MS = 15_000;

export interface ChromiumOptions {
  /** The profile to run on (kept on kill); by default a temporary one (removed on kill). */
  userDataDir?: string;
  /** The first tab's URL. */
  url?: string;
  /** More command-line switches (e.g. `--enable-features=WebMCP`). */
  args?: string[];
}

export async function startChromium(options: ChromiumOptions = {}): Promise<RunningChromium> {
  const ownProfile = !options.userDataDir;
  const profile = options.userDataDir ?? mkdtempSync(join(tmpdir(), 'cdp-mcp-attach-'));
  const child = spawn(
    CHROME_PATH,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(options.args ?? []),
      options.url ?? 'about:blank',
    ],
    {stdio: 'ignore', detached: true},
  );
  // Its own process group (kill() takes its renderers too), so a test file
  // that is killed would leave it running: the test runner reaps the groups
  // named here when the file ends (scripts/run-tests.mjs).
  if (child.pid && process.env.CDP_MCP_TEST_REAP_FILE) {
    appendFileSync(process.env.CDP_MCP_TEST_REAP_FILE, `${child.pid} ${profile}\n`);
  }
  const file = join(profile, 'DevToolsActivePort');
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(existsSync(file) && readFileSync(file, 'utf8').includes('\n'))) {
    if (Date.now() > deadline || child.exitCode !== null) {
      try {
        if (child.pid && child.exitCode === null) {
          process.kill(-child.pid, 'SIGKILL');
        }
      } catch {
        // Already gone.
      }
      throw new Error(`Chromium did not start (no ${file}).`);
    }
    await new Promise(resolve => setTimeout(resolve, 50));
  }
  const [port = '', path = ''] = readFileSync(file, 'utf8').split('\n');
  return {
    port: Number(port),
    browserWsUrl: `ws://127.0.0.1:${port}${path}`,
    process: child,
    alive: () => child.exitCode === null && child.signalCode === null,
    kill() {
      if (child.pid && child.exitCode === null) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      if (ownProfile) {
        rmSync(profile, {recursive: true, force: true});
      }
    },
  };
}
