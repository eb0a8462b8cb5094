/** Messages between the server process (HeapHost.ts) and the heap host process (host.ts). */

/** What the server saw of a snapshot file; a change means the loaded copy is stale. */
export interface FileRef {
  path: string;
  size: number;
  mtimeMs: number;
  /** Device and inode (decimal) of the file that was checked: the loader reads that file or none. */
  dev: string;
  ino: string;
}

export interface HostConfig {
  /** file: URL of the vendored DevTools heap-snapshot module. */
  modulePath: string;
  maxSnapshots: number;
  maxBytes: number;
}

export type HostRequest =
  | {
      id: number;
      op: 'query';
      file: FileRef;
      /** For diff queries: the earlier snapshot, diffed against `file`. */
      base?: FileRef;
      name: string;
      args: unknown;
    }
  | {id: number; op: 'close'; path: string};

export type HostReply =
  /** Sent as soon as a request arrives: requests the host never got can go to a new host. */
  | {id: number; accepted: true}
  | {id: number; ok: true; result: unknown; notes: string[]}
  | {id: number; ok: false; message: string; notes: string[]}
  | {id: number; progress: {path: string; loaded: number; total: number}};

export interface CloseResult {
  closed: boolean;
  remaining: number;
}
