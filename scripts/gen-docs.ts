/**
 * Rewrites the generated parts of the docs from the code they describe.
 * Usage: npm run gen-docs (= tsc -p . && node build/scripts/gen-docs.js).
 */
import {readFileSync, writeFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';

import {withGeneratedFlags} from './readmeDocs.js';

const README = fileURLToPath(new URL('../../README.md', import.meta.url));

const before = readFileSync(README, 'utf8');
const after = withGeneratedFlags(before);
if (after !== before) {
  writeFileSync(README, after);
}
process.stdout.write(`${after === before ? 'unchanged' : 'updated'}: README.md (flag tables)\n`);
