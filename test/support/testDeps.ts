/**
 * Where the test command's own packages are: test/deps/node_modules (the test
 * corpus's apps, chrome-devtools-mcp, the linters; installed by
 * scripts/test-deps.mjs, which scripts/run-tests.mjs runs first). The root
 * node_modules holds only what the build needs.
 */
import {createRequire} from 'node:module';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

/** test/deps/ (this file is build/test/support/testDeps.js). */
export const TEST_DEPS_DIR = fileURLToPath(new URL('../../../test/deps/', import.meta.url));
export const TEST_NODE_MODULES = join(TEST_DEPS_DIR, 'node_modules');

/** A require that resolves from test/deps/node_modules. */
export const requireTestDep = createRequire(join(TEST_DEPS_DIR, 'package.json'));
