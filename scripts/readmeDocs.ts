/**
 * The generated parts of README.md: the flag tables, from the flag table in
 * src/config/flagTable.ts. `npm run gen-docs` writes them; a unit test
 * (test/unit/cli/readme.test.ts) fails when the README no longer matches.
 */
import {flagTablesMarkdown} from '../src/config/flagDocs.js';

/** Opens the generated flag section of the README. */
export const FLAGS_START =
  '<!-- flags:start: generated from src/config/flagTable.ts by `npm run gen-docs`; do not edit -->';
/** Closes it. */
export const FLAGS_END = '<!-- flags:end -->';

/** `readme` with its flag section (between the markers) rewritten from the flag table. */
export function withGeneratedFlags(readme: string): string {
  const start = readme.indexOf(FLAGS_START);
  const end = readme.indexOf(FLAGS_END);
  if (start < 0 || end < start) {
    throw new Error(`README.md has lost its flag markers: put ${FLAGS_START} and ${FLAGS_END} back under "## Flags".`);
  }
  return `${readme.slice(0, start + FLAGS_START.length)}\n\n${flagTablesMarkdown()}\n\n${readme.slice(end)}`;
}
