/**
 * The backendNodeId of every node the in-page walk printed itself, per
 * frame: uids are keyed by it (as the reference keys them), and Chrome is
 * asked once per node (DOM.describeNode) while the node lives. The walker
 * and this cache forget the same nodes: those a walk did not print.
 */
export class PrintedNodeIds {
  readonly #frames = new Map<string, {token: string; ids: Map<number, number>; fresh: number[]}>();

  /** What to tell the frame's walker it need not send again (the ids learnt after its last walk). */
  confirm(frameKey: string): {token: string; ids: number[]} | undefined {
    const entry = this.#frames.get(frameKey);
    return entry ? {token: entry.token, ids: entry.fresh} : undefined;
  }

  /** Records a walk: the ids it printed and those Chrome just named. Returns every printed node's id. */
  update(frameKey: string, token: string, printed: number[], learnt: Map<number, number>): Map<number, number> {
    const old = this.#frames.get(frameKey);
    const ids = new Map<number, number>();
    if (old && old.token === token) {
      for (const id of printed) {
        const backend = old.ids.get(id);
        if (backend !== undefined) {
          ids.set(id, backend);
        }
      }
    }
    for (const [id, backend] of learnt) {
      ids.set(id, backend);
    }
    this.#frames.set(frameKey, {token, ids, fresh: [...learnt.keys()]});
    return ids;
  }

  /** Forgets frames the latest snapshot did not visit. */
  retain(visited: ReadonlySet<string>): void {
    for (const key of this.#frames.keys()) {
      if (!visited.has(key)) {
        this.#frames.delete(key);
      }
    }
  }
}
