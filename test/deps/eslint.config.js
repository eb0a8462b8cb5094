// ESLint flat config. Formatting is Prettier's job (npm run lint runs both);
// this file checks what a formatter cannot: import cycles, type-only imports
// and promise hygiene. The direction of imports between layers is checked by
// scripts/check-layers.mjs (it resolves every path, dynamic imports too).
// It lives beside the test packages it imports (test/deps/node_modules); the
// repository's eslint.config.js re-exports it, and paths here are the repository's.
import {join} from 'node:path';

import js from '@eslint/js';
import {createTypeScriptImportResolver} from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import tseslint from 'typescript-eslint';

const ROOT = join(import.meta.dirname, '../..');

export default tseslint.config(
  // .ws-* and .sandbox-* are tests' scratch folders (lint runs beside the tests).
  {
    ignores: [
      'build/**',
      'dist/**',
      'node_modules/**',
      '.bench/**',
      '.ws-*/**',
      '.sandbox-*/**',
      'protocol/protocol.json',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {allowDefaultProject: ['*.js', 'scripts/*.mjs', 'scripts/vendor/*.mjs']},
        tsconfigRootDir: ROOT,
      },
    },
    plugins: {'import-x': importX, 'simple-import-sort': simpleImportSort},
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({project: join(ROOT, 'tsconfig.json')})],
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
      // Sees the .js/.mjs files only (no import-x/extensions: its ExportMap skips .ts);
      // scripts/check-cycles.mjs checks the .ts files of src, test and scripts, type imports too.
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
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: {process: 'readonly', console: 'readonly', URL: 'readonly'},
    },
  },
);
