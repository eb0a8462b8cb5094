/**
 * The processes a background server started (its Chrome), for `status` and
 * for `stop`'s last resort. Read from /proc: on other systems the list is
 * empty and `stop` relies on the server killing its own Chrome.
 */
import {existsSync, readdirSync, readFileSync} from 'node:fs';

export interface ChildProcessInfo {
  pid: number;
  /** The command name (`chromium`, `chrome`, `node`…). */
  name: string;
}

/** The direct children of `pid`. */
export function childProcesses(pid: number): ChildProcessInfo[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const children: ChildProcessInfo[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      // pid (comm) state ppid …: comm may hold spaces and parentheses, hence the last ')'.
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      if (ppid === pid) {
        children.push({pid: Number(entry), name: stat.slice(stat.indexOf('(') + 1, close)});
      }
    } catch {
      // Gone meanwhile.
    }
  }
  return children;
}

/**
 * Whether `pid` still runs the command line the state file says (on Linux;
 * elsewhere assumed): a pid left in a stale file may have been given to an
 * unrelated process since, which `stop` must never signal.
 */
export function runsCommand(pid: number, args: readonly string[]): boolean {
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT' || !existsSync('/proc/self');
  }
  const words = cmdline.split('\0');
  return args.every(arg => words.includes(arg));
}
