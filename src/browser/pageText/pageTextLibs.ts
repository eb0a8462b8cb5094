/**
 * The in-page libraries of get_page_text, read on first use (never at
 * start-up) from node_modules, or in the published package (which has no
 * dependencies) from the copies scripts/bundle.mjs puts in dist/vendor/page-text/, and wrapped with the agent into one expression
 * that installs it in an isolated world. Each library is a CommonJS browser
 * build: it gets its own `module` object, so nothing lands on the world's
 * global object but the agent itself.
 */
import {existsSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {createRequire} from 'node:module';
import {basename} from 'node:path';

import {createTextAgent} from './pageTextAgent.js';

/** The registered symbol the agent lives under in the isolated world. */
export const TEXT_AGENT_KEY = 'cdp-mcp.text';

const LIBRARIES = {
  readability: '@mozilla/readability/Readability.js',
  readerable: '@mozilla/readability/Readability-readerable.js',
  turndown: 'turndown/lib/turndown.browser.cjs.js',
  gfm: '@joplin/turndown-plugin-gfm/lib/turndown-plugin-gfm.cjs.js',
} as const;

/** Where the published package keeps them (by file name); the chunks sit in dist/. */
const BUNDLED_DIR = new URL('./vendor/page-text/', import.meta.url);

let installer: Promise<string> | undefined;

function commonJs(source: string): string {
  return `(() => { const module = {exports: {}}; const exports = module.exports; ${source}\n;return module.exports; })()`;
}

async function build(): Promise<string> {
  const require = createRequire(import.meta.url);
  const read = (path: string) => {
    const bundled = new URL(basename(path), BUNDLED_DIR);
    return readFile(existsSync(bundled) ? bundled : require.resolve(path), 'utf8');
  };
  const [readability, readerable, turndown, gfm] = await Promise.all([
    read(LIBRARIES.readability),
    read(LIBRARIES.readerable),
    read(LIBRARIES.turndown),
    read(LIBRARIES.gfm),
  ]);
  return `(() => {
  const key = Symbol.for(${JSON.stringify(TEXT_AGENT_KEY)});
  if (!globalThis[key]) {
    const Readability = ${commonJs(readability)};
    const isProbablyReaderable = ${commonJs(readerable)};
    const TurndownService = ${commonJs(turndown)};
    const gfm = ${commonJs(gfm)};
    Object.defineProperty(globalThis, key, {value: (${createTextAgent.toString()})(Readability, isProbablyReaderable, TurndownService, gfm)});
  }
  return true;
})()`;
}

/** The expression that installs the agent (once per world); cached after the first read. */
export function textAgentInstaller(): Promise<string> {
  installer ??= build().catch((error: unknown) => {
    installer = undefined;
    throw new Error(`Could not load the page text libraries: ${(error as Error).message}`, {cause: error});
  });
  return installer;
}

/** An expression that reads the agent (undefined when the world has none yet). */
export const TEXT_AGENT = `globalThis[Symbol.for(${JSON.stringify(TEXT_AGENT_KEY)})]`;
