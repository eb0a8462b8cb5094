/**
 * A private X display (Xvfb) for tests of a visible (headful) Chrome: a fixed
 * 1920x1080 screen whatever the machine has, reachable only with the cookie
 * of an authority file in a folder of ours (no TCP, no other local user).
 */
import {type ChildProcess, spawn} from 'node:child_process';
import {randomBytes} from 'node:crypto';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';

/** How long Xvfb may take to say which display it opened. */
const START_TIMEOUT_MS = 15_000;

export const DISPLAY_SIZE = {width: 1920, height: 1080};

export interface XDisplay {
  /** What DISPLAY and XAUTHORITY must be for a client of this display. */
  env: {DISPLAY: string; XAUTHORITY: string};
  stop(): Promise<void>;
}

/** One Xauthority entry: any address (FamilyWild), this display number, an MIT-MAGIC-COOKIE-1. */
function authorityEntry(display: string, cookie: Buffer): Buffer {
  const field = (data: Buffer) => {
    const length = Buffer.alloc(2);
    length.writeUInt16BE(data.length);
    return [length, data];
  };
  const family = Buffer.from([0xff, 0xff]);
  return Buffer.concat([
    family,
    ...field(Buffer.alloc(0)),
    ...field(Buffer.from(display)),
    ...field(Buffer.from('MIT-MAGIC-COOKIE-1')),
    ...field(cookie),
  ]);
}

/** Starts Xvfb on a free display; throws saying what to install when it cannot. */
export async function startDisplay(): Promise<XDisplay> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cdp-mcp-xvfb-'));
  const authority = path.join(dir, 'Xauthority');
  const cookie = randomBytes(16);
  // The server only reads the cookie; the display number is written once known, for clients.
  writeFileSync(authority, authorityEntry('0', cookie), {mode: 0o600});
  const {width, height} = DISPLAY_SIZE;
  let child: ChildProcess;
  try {
    child = spawn(
      'Xvfb',
      ['-displayfd', '3', '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp', '-noreset', '-auth', authority],
      {stdio: ['ignore', 'ignore', 'pipe', 'pipe']},
    );
  } catch (error) {
    rmSync(dir, {recursive: true, force: true});
    throw error;
  }
  const stop = async () => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise(resolve => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), START_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, {recursive: true, force: true});
  };
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const number = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`Xvfb opened no display within ${START_TIMEOUT_MS} ms: ${stderr}`)),
      START_TIMEOUT_MS,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(error);
    };
    child.once('error', error =>
      fail(new Error(`Could not start Xvfb (${error.message}); the headful tests need it: apt-get install xvfb.`)),
    );
    child.once('exit', code => fail(new Error(`Xvfb exited (${code}) before opening a display: ${stderr}`)));
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^(\d+)\n/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  child.removeAllListeners('exit');
  writeFileSync(authority, authorityEntry(number, cookie), {mode: 0o600});
  return {env: {DISPLAY: `:${number}`, XAUTHORITY: authority}, stop};
}
