/**
 * Rewrites the generated parts of the docs from what they describe: the
 * blocks of README.md and docs/*.md (scripts/readmeDocs.ts) and docs/tools.md.
 * Usage: npm run gen-docs (= tsc -p . && node build/scripts/gen-docs.js).
 */
import {readFileSync, writeFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';

import {GENERATED_FILES, withGeneratedBlocks} from './readmeDocs.js';
import {TOOLS_DOC, toolsMarkdown} from './toolDocs.js';

/** Writes `file` (relative to the repository) when `rewrite` changes it, and says so. */
function regenerate(file: string, what: string, rewrite: (before: string) => string): void {
  const path = fileURLToPath(new URL(`../../${file}`, import.meta.url));
  let before = '';
  try {
    before = readFileSync(path, 'utf8');
  } catch {
    // A generated file that does not exist yet.
  }
  const after = rewrite(before);
  if (after !== before) {
    writeFileSync(path, after);
  }
  process.stdout.write(`${after === before ? 'unchanged' : 'updated'}: ${file} (${what})\n`);
}

regenerate(TOOLS_DOC, 'every tool', () => toolsMarkdown());
for (const file of GENERATED_FILES) {
  regenerate(file, 'generated blocks', before => withGeneratedBlocks(file, before));
}
