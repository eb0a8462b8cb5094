// ESLint flat config. Formatting is Prettier's job (npm run lint runs both);
// this file checks what a formatter cannot: the direction of imports between
// layers, import cycles, type-only imports and promise hygiene.
import js from '@eslint/js';
import {createTypeScriptImportResolver} from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import tseslint from 'typescript-eslint';

/**
 * The layers of src/, lowest first. A layer may import only from layers below
 * it and from the leaves; leaves import only other leaves (and protocol types).
 * `input`, `snapshot` and `devtools` (DevTools' own models: traces, CSS, heap
 * snapshots, Lighthouse) sit side by side and do not import each other; so do
 * `server` (the MCP server) and `client` (the `cdp-mcp start|status|stop|<tool>`
 * commands, a small MCP client of the background server over fetch).
 */
const LAYERS = ['cdp', 'browser', 'input|snapshot|devtools', 'tools', 'server|client', 'bin'];
/** Imported by every layer; they import no layer. */
const LEAVES = ['util', 'response', 'config'];
/** Leaf-to-leaf imports that are allowed (config and response use util). */
const LEAF_DEPS = {util: [], response: ['util'], config: ['util']};

/** The layers that may use the CDP layer directly. */
const CDP_USERS = ['browser', 'input', 'snapshot', 'devtools'];

/** Packages only one layer may import. */
const OWNED_PACKAGES = [
  {names: ['chrome-remote-interface', 'chrome-launcher', 'ws'], owner: 'cdp'},
  {names: ['@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'], owner: 'server'},
];

const allFolders = [...LAYERS.flatMap(l => l.split('|')), ...LEAVES];

/** Patterns that forbid importing `folder` from a file under src/<from>/. */
function folderPattern(folder) {
  return {
    group: [`./${folder}/*`, `../${folder}/*`, `../../${folder}/*`, `../../../${folder}/*`],
    message: `This layer may not import src/${folder}/ (layers: ${LAYERS.join(' → ')}; leaves: ${LEAVES.join(', ')}).`,
  };
}

function packagePatterns(folder) {
  return OWNED_PACKAGES.filter(p => p.owner !== folder).map(p => ({
    group: p.names,
    message: `Only src/${p.owner}/ may import ${p.names[0]}.`,
  }));
}

/** no-restricted-imports for one folder of src/. */
function layerRule(folder) {
  let forbidden;
  const leaf = LEAVES.includes(folder);
  if (leaf) {
    forbidden = allFolders.filter(f => f !== folder && !LEAF_DEPS[folder].includes(f));
  } else {
    const rank = LAYERS.findIndex(l => l.split('|').includes(folder));
    const siblings = LAYERS[rank].split('|').filter(f => f !== folder);
    const higher = LAYERS.slice(rank + 1).flatMap(l => l.split('|'));
    forbidden = [...siblings, ...higher];
    // Tools, the server and bin talk to Chrome through the browser model only.
    if (!CDP_USERS.includes(folder) && folder !== 'cdp') {
      forbidden.push('cdp');
    }
  }
  return {
    files: [`src/${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': ['error', {patterns: [...forbidden.map(folderPattern), ...packagePatterns(folder)]}],
    },
  };
}

export default tseslint.config(
  {ignores: ['build/**', 'dist/**', 'node_modules/**', '.bench/**', 'protocol/protocol.json']},
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {allowDefaultProject: ['*.js', 'scripts/*.mjs', 'scripts/vendor/*.mjs']},
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: {'import-x': importX, 'simple-import-sort': simpleImportSort},
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({project: './tsconfig.json'})],
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', {fixStyle: 'inline-type-imports'}],
      '@typescript-eslint/consistent-type-exports': 'error',
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', {considerDefaultExhaustiveForUnions: true}],
      // Tool handlers are async by contract even when they only declare the response.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', {argsIgnorePattern: '^_', varsIgnorePattern: '^_'}],
      'import-x/no-cycle': 'error',
      'import-x/no-self-import': 'error',
      'simple-import-sort/imports': 'error',
      'simple-import-sort/exports': 'error',
      curly: ['error', 'all'],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {'no-console': 'error'},
  },
  {
    // Scripts and tests read JSON they wrote themselves; `any` from JSON.parse is fine there.
    files: ['scripts/**', 'test/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  ...['cdp', 'browser', 'input', 'snapshot', 'devtools', 'tools', 'server', 'client', 'bin', ...LEAVES].map(layerRule),
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: {process: 'readonly', console: 'readonly', URL: 'readonly'},
    },
  },
);
