/**
 * Drives a corpus page through one MCP server, as an agent would: navigate,
 * wait for the app by condition, find elements by role and name in the
 * snapshot text, act with the input tools, read the app's state back.
 */
import {mkdtemp, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';

import type {FixtureServer} from '../fixtureServer.js';
import type {CallResult, TestServer} from '../mcpClient.js';
import {aliasFolder} from '../referenceRecord.js';
import type {CorpusHost, CorpusPage, CorpusStep} from './types.js';

/** Bound of waiting for an app to render or react (real apps on a 2-core machine under heavy load). */
export const APP_WAIT_MS = 30_000;
/** Pause between two checks of a waited-for condition, in the page. */
const POLL_MS = 20;

export function corpusPath(page: CorpusPage): string {
  return `/corpus/${page.id}`;
}

export function hostOf(fixtures: FixtureServer): CorpusHost {
  return {url: path => fixtures.url(path), crossSiteUrl: path => fixtures.crossSiteUrl(path)};
}

/** Routes every page of the corpus (and node_modules) on the fixture server. */
export async function serveCorpus(fixtures: FixtureServer, pages: CorpusPage[]): Promise<void> {
  await fixtures.serveNodeModules();
  const host = hostOf(fixtures);
  for (const page of pages) {
    fixtures.html(corpusPath(page), page.html(host));
    for (const [path, route] of Object.entries(page.routes?.(host) ?? {})) {
      fixtures.route(path, {
        body: route.body,
        headers: {'content-type': route.contentType ?? 'text/html; charset=utf-8'},
      });
    }
  }
}

/** The JSON value an evaluate_script answer carries. */
export function evaluateValue(result: CallResult): unknown {
  if (result.isError) {
    throw new Error(`evaluate_script failed: ${result.text}`);
  }
  const json = /```json\n([\s\S]*)\n```/.exec(result.text)?.[1];
  if (json === undefined) {
    throw new Error(`evaluate_script answered without a value: ${result.text}`);
  }
  return json === 'undefined' ? undefined : (JSON.parse(json) as unknown);
}

export async function evaluate(server: TestServer, fn: string): Promise<unknown> {
  return evaluateValue(await server.call('evaluate_script', {pageId: 1, function: fn}));
}

/** Waits in the page until `condition` (a JS expression) holds; throws with `what` after APP_WAIT_MS. */
export async function waitUntil(server: TestServer, condition: string, what: string): Promise<void> {
  const fn = `async () => {
    const end = Date.now() + ${APP_WAIT_MS};
    for (;;) {
      try { if (${condition}) return true; } catch {}
      if (Date.now() > end) return false;
      await new Promise(resolve => setTimeout(resolve, ${POLL_MS}));
    }
  }`;
  if ((await evaluate(server, fn)) !== true) {
    throw new Error(`${what}: the condition ${condition} did not hold within ${APP_WAIT_MS} ms`);
  }
}

/**
 * No animation or CSS transition with an end runs, in the document or in any
 * open shadow root (document.getAnimations() leaves shadow roots out). What a
 * snapshot shows can change while one runs (an Ionic toggle's knob sliding:
 * the wrapper is ignored until it ends), and a comparison with the reference's
 * recorded answers must see the state the record saw, not a moment of it.
 */
const SETTLED = `!(function running(root) { return root.getAnimations().some(a => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity) || [...root.querySelectorAll('*')].some(e => !!e.shadowRoot && running(e.shadowRoot)); })(document)`;

/** Navigates page 1 to the corpus page and waits until the app has rendered. */
export async function openCorpusPage(server: TestServer, fixtures: FixtureServer, page: CorpusPage): Promise<void> {
  const result = await server.call('navigate_page', {pageId: 1, type: 'url', url: fixtures.url(corpusPath(page))});
  if (result.isError) {
    throw new Error(`navigate_page failed: ${result.text}`);
  }
  await waitUntil(server, page.ready, `${page.id} did not get ready`);
  await waitUntil(server, SETTLED, `${page.id}: animations still ran after load`);
}

/** A small text file for upload steps, in a folder of its own under the system's temp folder. */
async function uploadFile(name: string): Promise<string> {
  // Its name changes from run to run: the reference's records name it by an alias.
  uploads ??= mkdtemp(join(tmpdir(), 'cdp-mcp-corpus-')).then(folder => {
    aliasFolder(folder, 'corpus-uploads');
    return folder;
  });
  const file = join(await uploads, name);
  await writeFile(file, `Uploaded by the corpus agent: ${name}\n`);
  return file;
}
let uploads: Promise<string> | undefined;

/** Reads the app's state back (the task's check), in the top document or in the frame of `checkIn`'s element. */
export async function checkTask(server: TestServer, page: CorpusPage): Promise<unknown> {
  const {check, checkIn} = page.task;
  if (!checkIn) {
    return evaluate(server, check);
  }
  const element = findUid(await snapshot(server), checkIn, `${page.id} task check`);
  return evaluateValue(await server.call('evaluate_script', {pageId: 1, function: check, args: [element]}));
}

/** uid of the first snapshot line matching `pattern`. */
export function findUid(snapshot: string, pattern: RegExp, what: string): string {
  const line = snapshot.split('\n').find(l => pattern.test(l));
  const uid = line && /uid=(\d+_\d+)/.exec(line)?.[1];
  if (!uid) {
    throw new Error(`${what}: no snapshot line matches ${pattern}. Snapshot:\n${snapshot}`);
  }
  return uid;
}

export async function snapshot(server: TestServer, verbose = false): Promise<string> {
  const result = await server.call('take_snapshot', {pageId: 1, verbose});
  if (result.isError) {
    throw new Error(`take_snapshot failed: ${result.text}`);
  }
  return result.text;
}

/**
 * Does one step on the elements `snapshotText` names (the latest snapshot the
 * server took), then waits for the step's condition and for its animations to
 * end. Returns the tool's answer.
 */
export async function runStep(server: TestServer, snapshotText: string, step: CorpusStep): Promise<CallResult> {
  const uid = (pattern: RegExp) => findUid(snapshotText, pattern, step.label);
  let result: CallResult;
  switch (step.tool) {
    case 'click':
      result = await server.call('click', {
        pageId: 1,
        uid: step.verbose ? findUid(await snapshot(server, true), step.target, step.label) : uid(step.target),
        ...(step.dblClick ? {dblClick: true} : {}),
      });
      break;
    case 'hover':
      result = await server.call('hover', {pageId: 1, uid: uid(step.target)});
      break;
    case 'fill':
      result = await server.call('fill', {pageId: 1, uid: uid(step.target), value: step.value});
      break;
    case 'type_text':
      result = await server.call('type_text', {
        pageId: 1,
        text: step.text,
        ...(step.submitKey ? {submitKey: step.submitKey} : {}),
      });
      break;
    case 'press_key':
      result = await server.call('press_key', {pageId: 1, key: step.key});
      break;
    case 'drag':
      result = await server.call('drag', {pageId: 1, from_uid: uid(step.target), to_uid: uid(step.to)});
      break;
    case 'evaluate_script':
      result = await server.call('evaluate_script', {pageId: 1, function: step.function});
      break;
    case 'upload_file':
      result = await server.call('upload_file', {
        pageId: 1,
        uid: uid(step.target),
        filePaths: [await uploadFile(step.name)],
      });
      break;
    case 'wait_for':
      result = await server.call('wait_for', {pageId: 1, text: step.text, timeout: APP_WAIT_MS});
      break;
    case 'list_network_requests':
      result = await server.call('list_network_requests', {pageId: 1});
      if (!result.isError && !step.expect.test(result.text)) {
        throw new Error(`${step.label}: no request matches ${step.expect}:\n${result.text}`);
      }
      break;
  }
  if (result.isError) {
    throw new Error(`${step.label}: ${step.tool} failed: ${result.text}`);
  }
  if (step.until) {
    await waitUntil(server, step.until, step.label);
  }
  if (step.untilText) {
    const shown = await server.call('wait_for', {pageId: 1, text: step.untilText, timeout: APP_WAIT_MS});
    if (shown.isError) {
      throw new Error(`${step.label}: ${step.untilText.join(' or ')} never showed: ${shown.text}`);
    }
  }
  await waitUntil(server, SETTLED, `${step.label}: animations still ran`);
  return result;
}

/** How an agent's run of a page's task went on one server. */
export interface TaskRun {
  /** The app's state read back equals the task's `expect`. */
  pass: boolean;
  /** Wall time from navigation to the state read back, in ms. */
  ms: number;
  /** What failed: a step's error, or the state read back when it differs. */
  detail?: string;
}

/**
 * Does a page's task as an agent would, on one server: open the page, then
 * per step a snapshot and the step on the elements it names, then a snapshot
 * and the check. Never throws: a failed step makes a failed run.
 */
export async function runTask(server: TestServer, fixtures: FixtureServer, page: CorpusPage): Promise<TaskRun> {
  const started = performance.now();
  try {
    await openCorpusPage(server, fixtures, page);
    for (const step of page.steps) {
      await runStep(server, await snapshot(server), step);
    }
    const value = await checkTask(server, page);
    const pass = JSON.stringify(value) === JSON.stringify(page.task.expect);
    return {pass, ms: performance.now() - started, ...(pass ? {} : {detail: `state ${JSON.stringify(value)}`})};
  } catch (error) {
    return {
      pass: false,
      ms: performance.now() - started,
      detail: error instanceof Error ? error.message : String(error),
    };
  }
}
