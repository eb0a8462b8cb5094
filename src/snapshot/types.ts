import type {CdpSession} from '../cdp/CdpConnection.js';

/** Serialized property values, as the reference's accessibility serializer produces them. */
export type SnapProps = Record<string, string | number | boolean>;

/** One frame's document as a snapshot sees it: where to talk to it and which document it is. */
export interface FrameTarget {
  session: CdpSession;
  frameId: string;
  /** The frame's current document (uids are keyed by it, as the reference keys them). */
  loaderId: string;
  /** Names the frame for element grouping (`evaluate_script` takes elements of one frame). */
  key: string;
}

/** How a snapshot node leads back to its DOM node. */
export interface ElementRef {
  kind: 'backend';
  frame: FrameTarget;
  backendNodeId: number;
}

/** One node of a snapshot tree, already filtered (or not, in verbose mode). */
export interface SnapNode {
  role: string;
  name: string;
  props: SnapProps;
  children: SnapNode[];
  /** Identity of the underlying DOM node across snapshots (undefined: no DOM node behind it). */
  key: string | undefined;
  ref: ElementRef | undefined;
  /** Chrome's id of the DOM node, when the node came from Chrome's tree. */
  backendNodeId?: number;
  /**
   * The DOM nodes of its ancestors in Chrome's tree, nearest first, when the
   * node came from Chrome's tree (shadow hosts included, closed ones too);
   * undefined for nodes of the in-page walk, which never enters a closed root.
   */
  axAncestors?: () => Iterable<number>;
}
