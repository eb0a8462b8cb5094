/**
 * Which of a server's own ES modules run: a module load hook (registered with
 * node:module's register, from an `--import` script given to the server) that
 * prepends `statement` to each file: module, where it runs when that module
 * runs, with import.meta.url its URL. Only the server's process runs it (the
 * processes it forks get no --import).
 */
export function modulesRunHook(statement: string): string {
  return `export async function load(url, context, next) {
  const loaded = await next(url, context);
  if (!url.startsWith('file:') || loaded.format !== 'module' || loaded.source == null) return loaded;
  const text = String(loaded.source);
  const at = text.startsWith('#!') ? text.indexOf('\\n') + 1 : 0;
  const record = ${JSON.stringify(statement)};
  return {...loaded, source: text.slice(0, at) + record + text.slice(at)};
}`;
}

/** Source that registers the hook (for an `--import` script). */
export function registerModulesRunHook(statement: string): string {
  return `const {register} = await import('node:module');
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(modulesRunHook(statement))}));`;
}

/** Node.js flags that make the server write `MODULE RUN <url>` on stderr as each of its modules runs. */
export const MODULES_RUN_ON_STDERR = [
  '--import',
  `data:text/javascript,${encodeURIComponent(
    registerModulesRunHook("globalThis.process.stderr.write('MODULE RUN ' + import.meta.url + '\\n');"),
  )}`,
];

/** The modules a server started with MODULES_RUN_ON_STDERR has run, relative to build/ (src/server/start.js...). */
export function modulesRun(stderr: string): string[] {
  return [...stderr.matchAll(/^MODULE RUN (\S+)$/gm)].map(m => (m[1] ?? '').replace(/^.*?\/build\//, ''));
}
