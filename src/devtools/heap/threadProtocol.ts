/** Messages between the heap host process and its snapshot threads (thread.ts). */
import type {MessagePort, ResourceLimits} from 'node:worker_threads';

export type ThreadData =
  | {
      role: 'snapshot';
      modulePath: string;
      path: string;
      size: number;
      /** The checked file's device and inode: a file found at `path` must be that one. */
      dev: string;
      ino: string;
      resourceLimits?: ResourceLimits;
    }
  | {role: 'secondary'; modulePath: string; port: MessagePort};

export type ThreadRequest =
  | {type: 'query'; id: number; name: string; args: unknown}
  /** Post this snapshot's aggregates (in the other snapshot's class keys) on `port`. */
  | {type: 'sendDiffBase'; id: number; interfaceDefinitions: string; port: MessagePort}
  /** Diff against the aggregates that arrive on `port`, remembered as base `baseUid`. */
  | {type: 'receiveDiffBase'; id: number; baseUid: number; port: MessagePort}
  | {type: 'memory'; id: number};

export type ThreadReply =
  | {type: 'progress'; loaded: number; total: number}
  | {type: 'ready'; classCount: number; memoryBytes: number}
  | {type: 'loadFailed'; message: string}
  | {type: 'result'; id: number; result: unknown}
  | {type: 'error'; id: number; message: string};
