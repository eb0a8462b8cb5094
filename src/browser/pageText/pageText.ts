/**
 * get_page_text: the readable content of a page (or of one element) as
 * markdown or text, frames included. Each frame is read by the text agent in
 * an isolated world of its own (out-of-process frames through their own
 * sessions); a frame's cleaned HTML is inlined into its parent's copy where
 * the iframe was, so the main-content choice sees the whole page.
 */
import type {CdpSession} from '../../cdp/CdpConnection.js';
import {debug} from '../../util/logger.js';
import {PageQuoteError} from '../../util/pageQuote.js';
import type {Page} from '../core/Page.js';
import {exceptionMessage} from '../script/exceptions.js';
import type {AgentText} from './pageTextAgent.js';
import {TEXT_AGENT, textAgentInstaller} from './pageTextLibs.js';

export type PageTextFormat = 'markdown' | 'text';

export interface PageText extends AgentText {
  url: string;
  /** Frames whose content was inlined. */
  frames: number;
}

/** Name of the isolated world the agent runs in (Chrome reuses it per frame). */
const WORLD_NAME = 'cdp-mcp-text';
/** Bound of one agent call; a huge page takes a few hundred ms. */
const AGENT_TIMEOUT_MS = 30_000;
/** Frames read per call, and how deep: ad-heavy pages nest many. */
const MAX_FRAMES = 30;
const MAX_FRAME_DEPTH = 4;

interface World {
  session: CdpSession;
  contextId: number;
}

/** The agent's world in a frame, installing the agent when the world is new. */
async function worldOf(session: CdpSession, frameId: string): Promise<World> {
  const {executionContextId: contextId} = await session.send('Page.createIsolatedWorld', {
    frameId,
    worldName: WORLD_NAME,
  });
  const present = await session.send('Runtime.evaluate', {
    expression: `Boolean(${TEXT_AGENT})`,
    contextId,
    returnByValue: true,
  });
  if (present.result.value !== true) {
    const installed = await session.send(
      'Runtime.evaluate',
      {expression: await textAgentInstaller(), contextId, returnByValue: true},
      AGENT_TIMEOUT_MS,
    );
    if (installed.exceptionDetails) {
      throw new PageQuoteError(`Could not read the page text: ${exceptionMessage(installed.exceptionDetails)}`);
    }
  }
  return {session, contextId};
}

/** Calls an agent method with `this` = the root element (objectId in the world) or undefined. */
async function call<T>(world: World, root: string | undefined, body: string, args: unknown[]): Promise<T> {
  const response = await world.session.send(
    'Runtime.callFunctionOn',
    {
      functionDeclaration: `function(...args) { const agent = ${TEXT_AGENT}; const root = this instanceof Element ? this : undefined; ${body} }`,
      ...(root ? {objectId: root} : {executionContextId: world.contextId}),
      arguments: args.map(value => ({value})),
      returnByValue: true,
    },
    AGENT_TIMEOUT_MS,
  );
  if (response.exceptionDetails) {
    throw new PageQuoteError(`Could not read the page text: ${exceptionMessage(response.exceptionDetails)}`);
  }
  return response.result.value as T;
}

class Extraction {
  frames = 0;

  constructor(readonly page: Page) {}

  /** Cleaned HTML of the frames under `root`, by their index in the agent's frame list. */
  async childFrames(world: World, root: string | undefined, depth: number): Promise<Record<number, string>> {
    const count = await call<number>(world, root, 'return agent.frames(root);', []);
    const out: Record<number, string> = {};
    for (let index = 0; index < count && depth < MAX_FRAME_DEPTH && this.frames < MAX_FRAMES; index++) {
      try {
        const html = await this.frameHtml(world, index, depth + 1);
        if (html !== undefined) {
          out[index] = html;
          this.frames++;
        }
      } catch (error) {
        debug('page text: a frame could not be read', error);
      }
    }
    return out;
  }

  async frameHtml(parent: World, index: number, depth: number): Promise<string | undefined> {
    const element = await parent.session.send('Runtime.evaluate', {
      expression: `${TEXT_AGENT}.frameAt(${index})`,
      contextId: parent.contextId,
    });
    if (!element.result.objectId) {
      return undefined;
    }
    const {node} = await parent.session.send('DOM.describeNode', {objectId: element.result.objectId});
    if (!node.frameId) {
      return undefined;
    }
    const oopif = this.page.frames.oopif(node.frameId);
    const world = await worldOf(oopif?.session ?? parent.session, node.frameId);
    const frames = await this.childFrames(world, undefined, depth);
    return call<string>(world, undefined, 'return agent.html(undefined, args[0]);', [frames]);
  }

  async run(world: World, root: string | undefined, format: PageTextFormat): Promise<AgentText> {
    const frames = await this.childFrames(world, root, 0);
    return call<AgentText>(world, root, 'return agent.extract(root, args[0], args[1]);', [frames, format]);
  }
}

/** Frame ids a session hosts, its own frame first. */
async function sessionFrames(session: CdpSession): Promise<string[]> {
  const {frameTree} = await session.send('Page.getFrameTree');
  const ids: string[] = [];
  const walk = (tree: typeof frameTree) => {
    ids.push(tree.frame.id);
    tree.childFrames?.forEach(walk);
  };
  walk(frameTree);
  return ids;
}

/** The element behind a uid, as an object of the agent's world of its frame. */
async function elementInWorld(page: Page, uid: string): Promise<{world: World; objectId: string}> {
  const element = await page.getElements().resolve(uid);
  const {node} = await element.session.send('DOM.describeNode', {objectId: element.objectId});
  for (const frameId of await sessionFrames(element.session)) {
    const world = await worldOf(element.session, frameId);
    const resolved = await element.session
      .send('DOM.resolveNode', {backendNodeId: node.backendNodeId, executionContextId: world.contextId})
      .catch(() => undefined);
    if (resolved?.object.objectId) {
      return {world, objectId: resolved.object.objectId};
    }
  }
  throw new Error(`Element with uid ${uid} could not be read. Take a new snapshot and try again.`);
}

export async function extractPageText(page: Page, format: PageTextFormat, uid?: string): Promise<PageText> {
  const extraction = new Extraction(page);
  let text: AgentText;
  if (uid) {
    const {world, objectId} = await elementInWorld(page, uid);
    text = await extraction.run(world, objectId, format);
  } else {
    text = await extraction.run(await worldOf(page.session, page.mainFrameId), undefined, format);
  }
  return {...text, url: page.url, frames: extraction.frames};
}
