/**
 * What the file-sandbox security tests share: folders outside the OS temp
 * dir (which a stdio session may use) on the same file system as each other
 * (hard links), an HTTP client that declares roots, and a process that keeps
 * swapping a folder for a symbolic link (the check-then-open race).
 */
import {type ChildProcess, spawn} from 'node:child_process';
import {mkdirSync, mkdtempSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';

import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {ListRootsRequestSchema} from '@modelcontextprotocol/sdk/types.js';

import {type HttpSession, resultOf} from './httpClient.js';

/** The build folder: outside the OS temp dir, on the repository's file system. */
const BUILD_DIR = fileURLToPath(new URL('../../', import.meta.url));

export interface Playground {
  base: string;
  /** Given to the server as --filesystemRoot. */
  root: string;
  /** Outside every root the server has (not in the OS temp dir either). */
  outside: string;
  remove(): void;
}

/** A fresh folder with `root/` and `outside/`, under build/ (not the OS temp dir). */
export function playground(): Playground {
  const base = mkdtempSync(join(BUILD_DIR, '.security-'));
  const root = join(base, 'root');
  const outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  return {base, root, outside, remove: () => rmSync(base, {recursive: true, force: true})};
}

/** An HTTP session whose client declares roots (and counts how often the server asked for them). */
export interface RootsSession extends HttpSession {
  /** How many roots/list requests the client answered. */
  readonly asked: number;
  /** Replaces the roots and tells the server (notifications/roots/list_changed). */
  setRoots(paths: string[]): Promise<void>;
}

export async function connectWithRoots(url: string, token: string, paths: string[]): Promise<RootsSession> {
  let roots = paths;
  let asked = 0;
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: {headers: {Authorization: `Bearer ${token}`}},
  });
  const client = new Client(
    {name: 'cdp-mcp-roots-tests', version: '1.0.0'},
    {capabilities: {roots: {listChanged: true}}},
  );
  client.setRequestHandler(ListRootsRequestSchema, async () => {
    asked++;
    return {roots: roots.map(path => ({uri: path.startsWith('file:') ? path : pathToFileURL(path).href}))};
  });
  await client.connect(transport);
  return {
    client,
    transport,
    get sessionId() {
      return transport.sessionId;
    },
    get asked() {
      return asked;
    },
    async call(name, args = {}) {
      return resultOf(await client.callTool({name, arguments: args}, undefined, {timeout: 60_000}));
    },
    async setRoots(next) {
      roots = next;
      await client.sendRootsListChanged();
    },
    async close() {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

/** The modification time (seconds) of the files in a swapped folder: files outside can be given the same. */
export const FILE_TIME_S = 1_000_000;

/**
 * Keeps swapping `path` between a real folder and a symbolic link to
 * `outside`, as fast as renames go, in a process of its own (so that the
 * swaps happen while the server works). The folder holds `files` (name →
 * content, modification time FILE_TIME_S), written again if it ever has to
 * be made anew.
 */
export function startSwapper(
  path: string,
  outside: string,
  files: Record<string, string> = {},
): {stop(): Promise<void>} {
  const script = `
    const fs = require('node:fs');
    const [path, outside, filesJson] = process.argv.slice(1);
    const files = JSON.parse(filesJson);
    const folder = path + '.folder', link = path + '.link';
    let junk = 0;
    function ensure() {
      try { fs.lstatSync(folder); } catch {
        fs.mkdirSync(folder);
        for (const [name, content] of Object.entries(files)) {
          fs.writeFileSync(folder + '/' + name, content);
          fs.utimesSync(folder + '/' + name, ${FILE_TIME_S}, ${FILE_TIME_S});
        }
      }
      try { fs.lstatSync(link); } catch { fs.symlinkSync(outside, link); }
    }
    function swapIn(from) {
      try { fs.renameSync(from, path); } catch (e) {
        // Something else is at path (a folder the server made in a gap): put it aside.
        try { fs.renameSync(path, path + '.junk' + junk++); } catch {}
      }
    }
    function swapOut(to) { try { fs.renameSync(path, to); } catch {} }
    ensure();
    for (;;) {
      swapIn(folder); swapOut(folder); ensure();
      swapIn(link); swapOut(link); ensure();
    }
  `;
  const child: ChildProcess = spawn(process.execPath, ['-e', script, path, outside, JSON.stringify(files)], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>(resolve => child.once('exit', () => resolve()));
  return {
    async stop() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
