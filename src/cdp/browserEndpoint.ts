import type {PipeChannel} from './pipeChannel.js';

/** A browser we can connect to; `launched` ones are ours to kill. */
export interface BrowserEndpoint {
  /** The browser target's WebSocket URL. */
  wsUrl: string;
  /** We started it: kill() ends it. Attached browsers belong to the user. */
  launched: boolean;
  pid?: number;
  /** Kills the browser we launched and removes its temporary profile. No-op when attached. */
  kill(): Promise<void>;
  /** Resolves when a launched browser process exits (never for attached ones). */
  exited: Promise<void>;
  /** The debugging pipe of a browser we launched (some domains answer only there). */
  pipe?: () => PipeChannel;
}
