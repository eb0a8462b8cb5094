import type {SnapNode} from './types.js';

/** Process-wide snapshot counter: the first part of every uid (as the reference's). */
let nextSnapshotId = 1;

export interface UidAssignment {
  snapshotId: number;
  uidOf: Map<SnapNode, string>;
  byUid: Map<string, SnapNode>;
}

/**
 * Uids as the reference gives them: `<snapshot>_<n>`, numbered in tree
 * order over every serialized node (also text the printout leaves out as
 * redundant); a node seen by the previous snapshot keeps its uid, new nodes
 * get fresh ones, and keys a snapshot did not see are forgotten. Nodes
 * without a DOM node get a fresh uid each time (the reference gives all of a
 * frame's such nodes one shared uid, docs/differences.md).
 */
export class UidRegistry {
  readonly #keyToUid = new Map<string, string>();

  assign(root: SnapNode): UidAssignment {
    const snapshotId = nextSnapshotId++;
    let counter = 0;
    const seen = new Set<string>();
    const uidOf = new Map<SnapNode, string>();
    const byUid = new Map<string, SnapNode>();
    const visit = (node: SnapNode) => {
      let uid = node.key === undefined ? undefined : this.#keyToUid.get(node.key);
      if (uid === undefined || byUid.has(uid)) {
        uid = `${snapshotId}_${counter++}`;
        if (node.key !== undefined) {
          this.#keyToUid.set(node.key, uid);
        }
      }
      if (node.key !== undefined) {
        seen.add(node.key);
      }
      uidOf.set(node, uid);
      byUid.set(uid, node);
      for (const child of node.children) {
        visit(child);
      }
    };
    visit(root);
    for (const key of this.#keyToUid.keys()) {
      if (!seen.has(key)) {
        this.#keyToUid.delete(key);
      }
    }
    return {snapshotId, uidOf, byUid};
  }
}
