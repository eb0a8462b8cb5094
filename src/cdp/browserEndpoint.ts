import type {RawClient} from './rawClient.js';

/**
 * How to reach the browser target: the WebSocket URL of a browser we attach
 * to, or the debugging pipe of one we launched (its only way in).
 */
export type BrowserTransport = {wsUrl: string; pipe?: never} | {pipe: RawClient; wsUrl?: never};

/** A browser we can connect to; `launched` ones are ours to kill. */
export interface BrowserEndpoint {
  transport: BrowserTransport;
  /** We started it: kill() ends it. Attached browsers belong to the user. */
  launched: boolean;
  pid?: number;
  /** Kills the browser we launched and removes its temporary profile. No-op when attached. */
  kill(): Promise<void>;
  /** Resolves when a launched browser process exits (never for attached ones). */
  exited: Promise<void>;
}
