/**
 * What a process tree exposes to other local users (Linux /proc): the TCP
 * ports its processes listen on, and the DevTools files its Chrome profiles
 * hold. For the security tests: nothing the server starts may listen where
 * another local user can connect without our token.
 */
import {existsSync, readdirSync, readFileSync, readlinkSync} from 'node:fs';
import {join} from 'node:path';

/** `pid` and every process below it (children, their children, …). */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces and parentheses.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const tree: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const next = queue.shift() as number;
    tree.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return tree;
}

/** The socket inodes a process holds open. */
function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return inodes;
  }
  for (const fd of fds) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match?.[1]) {
        inodes.add(match[1]);
      }
    } catch {
      // Closed meanwhile.
    }
  }
  return inodes;
}

export interface Listener {
  pid: number;
  /** The process's command line, for messages. */
  command: string;
  address: string;
  port: number;
}

/** TCP sockets in LISTEN state (st 0A), by inode, from a network namespace's tables as `pid` sees them. */
function listeningSockets(pid: number): Map<string, {address: string; port: number}> {
  const sockets = new Map<string, {address: string; port: number}>();
  for (const table of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const [local, state, inode] = [fields[1], fields[3], fields[9]];
      if (state !== '0A' || !local || !inode) {
        continue;
      }
      const [address = '', port = '0'] = local.split(':');
      sockets.set(inode, {address, port: Number.parseInt(port, 16)});
    }
  }
  return sockets;
}

/** Every TCP port a process of the tree under `rootPid` listens on. */
export function treeListeners(rootPid: number): Listener[] {
  const found: Listener[] = [];
  for (const pid of processTree(rootPid)) {
    const inodes = socketInodes(pid);
    if (!inodes.size) {
      continue;
    }
    for (const [inode, socket] of listeningSockets(pid)) {
      if (inodes.has(inode)) {
        found.push({pid, command: commandLine(pid).slice(0, 200), ...socket});
      }
    }
  }
  return found;
}

export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return '';
  }
}

/** Command lines of the Chrome processes (browser and helpers) in the tree under `rootPid`. */
export function chromeCommands(rootPid: number): string[] {
  return processTree(rootPid)
    .map(commandLine)
    .filter(command => /chrom/i.test(command.split(' ')[0] ?? ''));
}

/** DevToolsActivePort files in the profiles (`--user-data-dir`) of the Chrome processes under `rootPid`. */
export function activePortFiles(rootPid: number): string[] {
  const dirs = new Set<string>();
  for (const command of chromeCommands(rootPid)) {
    const dir = /--user-data-dir=(\S+)/.exec(command)?.[1];
    if (dir) {
      dirs.add(dir);
    }
  }
  return [...dirs].map(dir => join(dir, 'DevToolsActivePort')).filter(file => existsSync(file));
}
