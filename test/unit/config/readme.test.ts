import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {describe, it} from 'node:test';

import {FLAGS_END, FLAGS_START, withGeneratedFlags} from '../../../scripts/readmeDocs.js';
import {FLAGS} from '../../../src/config/flagTable.js';
import {helpText} from '../../../src/config/flagDocs.js';

const README = new URL('../../../../README.md', import.meta.url);

describe('README flag tables', () => {
  const readme = readFileSync(README, 'utf8');

  it('match the flag table (run npm run gen-docs when this fails)', () => {
    const expected = withGeneratedFlags(readme).split('\n');
    const actual = readme.split('\n');
    const line = expected.findIndex((text, i) => text !== actual[i]);
    assert.ok(
      line < 0 && expected.length === actual.length,
      `README.md is out of date with src/config/flagTable.ts: run \`npm run gen-docs\` and commit README.md ` +
        `(line ${line + 1} should be: ${expected[line]})`,
    );
  });

  it('list every flag that --help lists', () => {
    const section = readme.slice(readme.indexOf(FLAGS_START), readme.indexOf(FLAGS_END));
    const help = helpText();
    for (const name of Object.keys(FLAGS)) {
      assert.ok(section.includes(`| \`--${name}\``), `--${name} is missing from the README`);
      assert.match(help, new RegExp(`^  --${name}\\b`, 'm'), `--${name} is missing from --help`);
    }
  });
});
