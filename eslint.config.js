// The ESLint config is test/deps/eslint.config.js, beside the packages it
// imports (the test packages, installed by scripts/test-deps.mjs).
export {default} from './test/deps/eslint.config.js';
