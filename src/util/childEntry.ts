/**
 * What the server's helper processes and threads (heap analysis, trace
 * analysis) have in common: where their entry script is, and the line that
 * says why one died.
 */
import {existsSync} from 'node:fs';
import {fileURLToPath} from 'node:url';

/**
 * The absolute path of an entry script that ships in two layouts: compiled,
 * next to the module asking (`base`, its import.meta.url; build/src/...), and
 * in the published package under the name scripts/bundle.mjs gives it, next
 * to the dist/ chunk that module is bundled into. `files` lists the names to
 * try, in that order. Throws, saying what is missing where, when none exists:
 * `what` names the helper ("The heap analysis process").
 */
export function entryPath(base: string, files: readonly string[], what: string): string {
  const candidates = files.map(name => fileURLToPath(new URL(`./${name}`, base)));
  const found = candidates.find(file => existsSync(file));
  if (!found) {
    throw new Error(
      `${what} cannot start: its code is missing (neither ${candidates.join(' nor ')} exists). Reinstall cdp-mcp, or run "npm run build" in a checkout.`,
    );
  }
  return found;
}

/** The error line of a Node.js process that died of an uncaught error (`Error: Cannot find module …`). */
export function errorLine(output: string): string | undefined {
  const lines = output.split('\n').map(line => line.trim());
  return lines.find(line => /^[\w.[\]]*Error\b.*:/.test(line)) ?? lines.filter(Boolean).at(-1);
}
