import type {CdpSession} from '../cdp/CdpConnection.js';

/** Serialized property values, as the reference's accessibility serializer produces them. */
export type SnapProps = Record<string, string | number | boolean>;

/** Where the snapshot agent runs: a frame's main world in some session. */
export interface AgentTarget {
  session: CdpSession;
  /** Execution context of the frame; undefined = the session's main frame. */
  contextId: number | undefined;
  frameId: string;
}

/** How a snapshot node leads back to its DOM node. */
export type ElementRef =
  | {kind: 'agent'; target: AgentTarget; id: number; frameKey: string}
  | {kind: 'backend'; session: CdpSession; backendNodeId: number; frameKey: string};

/** One node of a snapshot tree, already filtered (or not, in verbose mode). */
export interface SnapNode {
  role: string;
  name: string;
  props: SnapProps;
  children: SnapNode[];
  /** Identity of the underlying node across snapshots (undefined: no DOM node behind it). */
  key: string | undefined;
  ref: ElementRef | undefined;
}
