import * as v from 'valibot';

import {definePageTool} from './defineTool.js';

/** A state file larger than this is not one we wrote (nor Playwright). */
const MAX_STATE_FILE_BYTES = 50 * 1024 * 1024;
const FORMAT_HINT =
  'Expected the JSON that save_storage_state (or Playwright\'s storageState()) writes: {"cookies": [...], "origins": [...]}.';

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

export const saveStorageState = definePageTool({
  name: 'save_storage_state',
  title: 'Save storage state',
  description: "Save the page's context cookies and storage to a JSON file (Playwright storageState format).",
  annotations: {
    category: 'navigation',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  beyondReference: true,
  // Reads the storage of every page of the context, and the context's cookies.
  lane: {kind: 'browser', why: "reads every page of the page's browser context"},
  blockedByDialog: false,
  filePaths: ['filePath'],
  schema: {
    filePath: v.pipe(v.string(), v.description('File to write (.json); holds secrets.')),
  },
  async handler({params, page}, response, {files}) {
    const {state, unanswered} = await page.storage.save();
    const saved = await files.save(`${JSON.stringify(state, null, 2)}\n`, params.filePath, '.json');
    const local = state.origins.reduce((n, o) => n + o.localStorage.length, 0);
    const session = state.origins.reduce((n, o) => n + (o.sessionStorage?.length ?? 0), 0);
    response.line(
      `Saved the storage state of ${page.contextLabel} to ${saved}: ${count(state.cookies.length, 'cookie')}, ${count(state.origins.length, 'origin')} (${count(local, 'localStorage item')}, ${count(session, 'sessionStorage item')}).`,
    );
    for (const id of unanswered) {
      response.line(
        `Page ${id} did not answer (its scripts may never yield): the storage of origins only it shows, and its sessionStorage, are not in the file. Save again once it answers, or close it with close_page first.`,
      );
    }
  },
});

export const loadStorageState = definePageTool({
  name: 'load_storage_state',
  title: 'Load storage state',
  description:
    "Load cookies and storage from a save_storage_state (or Playwright storageState) file into the page's context.",
  annotations: {
    category: 'navigation',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  beyondReference: true,
  // Cookies and localStorage are the whole context's, seen by its other pages at once.
  lane: {kind: 'browser', why: "writes cookies and storage the context's other pages share"},
  blockedByDialog: true,
  filePaths: ['filePath'],
  schema: {
    filePath: v.pipe(v.string(), v.description('The storage state JSON file to load.')),
  },
  async handler({params, page}, response, {files}) {
    const text = (await files.read(params.filePath, MAX_STATE_FILE_BYTES)).toString('utf8');
    let state;
    try {
      state = page.storage.parse(text);
    } catch (error) {
      throw new Error(`${params.filePath} is not a storage state file: ${(error as Error).message}. ${FORMAT_HINT}`, {
        cause: error,
      });
    }
    const report = await page.storage.load(state);
    const {localStorage: local, sessionStorage: session} = report;
    response.line(
      `Loaded the storage state from ${params.filePath} into ${page.contextLabel}: ${count(report.cookies, 'cookie')}, localStorage of ${count(local.origins, 'origin')} (${count(local.items, 'item')}), sessionStorage of ${count(session.origins, 'origin')} (${count(session.items, 'item')}) for page ${page.id}.`,
      'Reload or navigate the page for it to take effect.',
    );
  },
});
