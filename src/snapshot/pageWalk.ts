import {exceptionMessage} from '../browser/script/exceptions.js';
import {errorMessage, mapLimited} from '../util/async.js';
import {PageQuoteError} from '../util/pageQuote.js';
import type {FramePlace, IsolatedWorlds} from './frames.js';
import type {PrintedNodeIds} from './printedIds.js';
import {walkerRules} from './rules.js';
import type {FrameTarget} from './types.js';
import {installWalker, WALKER, type WalkNode, type WalkResult} from './walker.js';
import {walkerClassify} from './walkerClassify.js';
import {walkerStyles} from './walkerStyles.js';
import {walkerText} from './walkerText.js';

/** Bound of one call into the walker (the walk of a big document takes a few hundred ms). */
const WALK_TIMEOUT_MS = 30_000;
/**
 * Questions about single nodes in flight at once: enough to keep Chrome busy
 * (it answers one at a time), few enough that the first snapshot of 5000 new
 * buttons does not hold 5000 pending commands (util/async.ts mapLimited).
 */
export const IN_FLIGHT = 64;
const WALKER_SOURCE = `(${installWalker.toString()})(${walkerRules.toString()}, ${walkerStyles.toString()}, ${walkerText.toString()}, ${walkerClassify.toString()})`;

/** Remote objects of the walk's nodes, by their index in the walker's answer. */
export type NodeObjects = Array<string | undefined>;

/**
 * One frame's walk in our isolated world. Its remote objects live in an
 * object group of their own: frames in one process share a session, and
 * releasing one frame's group must not release another walk's objects.
 */
export class PageWalk {
  static #nextGroup = 1;
  readonly objectGroup = `cdp-mcp-snapshot-${PageWalk.#nextGroup++}`;
  #contextId = 0;

  /** `signal`: the snapshot's (engine.ts): every request of the walk carries it, but the release of its objects. */
  constructor(
    readonly place: FramePlace,
    readonly worlds: IsolatedWorlds,
    readonly signal: AbortSignal,
  ) {}

  /** One evaluation whose value is [json, ...nodes]: the JSON and the nodes' remote objects, in two calls. */
  async #withNodes(expression: string): Promise<{json: string; objects: NodeObjects} | undefined> {
    const {session} = this.place;
    const response = await session.send(
      'Runtime.evaluate',
      {expression, contextId: this.#contextId, objectGroup: this.objectGroup},
      {timeout: WALK_TIMEOUT_MS, signal: this.signal},
    );
    if (response.exceptionDetails) {
      throw new PageQuoteError(`Could not read the page content: ${exceptionMessage(response.exceptionDetails)}`);
    }
    if (!response.result.objectId) {
      return undefined;
    }
    const {result} = await session.send(
      'Runtime.getProperties',
      {objectId: response.result.objectId, ownProperties: true},
      {signal: this.signal},
    );
    let json: string | undefined;
    const objects: NodeObjects = [];
    for (const prop of result) {
      const index = Number(prop.name);
      if (!Number.isInteger(index) || index < 0) {
        continue;
      }
      if (index === 0) {
        json = typeof prop.value?.value === 'string' ? prop.value.value : undefined;
      } else {
        objects[index - 1] = prop.value?.objectId;
      }
    }
    return json === undefined ? undefined : {json, objects};
  }

  /** Runs the walk (installing the walker when the document has none yet). */
  async walk(printed: PrintedNodeIds): Promise<{result: WalkResult; objects: NodeObjects}> {
    const confirm = printed.confirm(this.place.key);
    const args = confirm
      ? `${WALKER}.token === ${JSON.stringify(confirm.token)} ? ${JSON.stringify(confirm.ids)} : []`
      : '[]';
    const run = async (fresh: boolean) => {
      this.#contextId = await this.worlds.context(this.place, fresh, {signal: this.signal});
      const done =
        (await this.#withNodes(`${WALKER} ? ${WALKER}.walk(${args}) : null`)) ??
        (await this.#withNodes(`${WALKER_SOURCE}; ${WALKER}.walk([])`));
      if (!done) {
        throw new Error('Could not read the page content: the snapshot walker did not answer');
      }
      return {result: JSON.parse(done.json) as WalkResult, objects: done.objects};
    };
    try {
      return await run(false);
    } catch (error) {
      if (!/context/i.test(errorMessage(error))) {
        throw error;
      }
      // The document's world went away with a navigation: make one for the new document.
      return run(true);
    }
  }

  /** Placeholders for the children of placeholders Chrome keeps no node for (walker `expand`). */
  async expand(xs: number[]): Promise<{lists: WalkNode[][]; start: number; objects: NodeObjects} | undefined> {
    const done = await this.#withNodes(`${WALKER}.expand(${JSON.stringify(xs)})`);
    if (!done) {
      return undefined;
    }
    const {lists, start} = JSON.parse(done.json) as {lists: WalkNode[][]; start: number};
    return {lists, start, objects: done.objects};
  }

  /** Chrome's backendNodeId of every printed node the walker listed as unknown (uids are keyed by it). */
  async printedBackendIds(frame: FrameTarget, result: WalkResult, objects: NodeObjects): Promise<Map<number, number>> {
    const learnt = new Map<number, number>();
    await mapLimited(result.mi, IN_FLIGHT, async (id, i) => {
      const objectId = objects[result.m + i];
      const described = objectId
        ? await frame.session.trySend('DOM.describeNode', {objectId}, {signal: this.signal})
        : undefined;
      if (described) {
        learnt.set(id, described.node.backendNodeId);
      }
    });
    return learnt;
  }

  /**
   * Releases the walk's remote objects: sent also after the snapshot was
   * stopped (Chrome answers in order, so it frees what an evaluation still
   * in the page's queue makes).
   */
  release(): void {
    void this.place.session.trySend('Runtime.releaseObjectGroup', {objectGroup: this.objectGroup});
  }
}
