import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {describe, it} from 'node:test';

import {TOOLS_DOC, toolsMarkdown} from '../../../scripts/toolDocs.js';
import {DEFAULT_CONFIG} from '../../../src/config/options.js';
import {createTools} from '../../../src/tools/registry.js';

const DOC = new URL(`../../../../${TOOLS_DOC}`, import.meta.url);

describe('docs/tools.md', () => {
  const doc = readFileSync(DOC, 'utf8');

  it('matches the tool definitions (run npm run gen-docs when this fails)', () => {
    const expected = toolsMarkdown().split('\n');
    const actual = doc.split('\n');
    const line = expected.findIndex((text, i) => text !== actual[i]);
    assert.ok(
      line < 0 && expected.length === actual.length,
      `${TOOLS_DOC} is out of date with src/tools/: run \`npm run gen-docs\` and commit it ` +
        `(line ${line + 1} should be: ${expected[line]})`,
    );
  });

  it('has a section with every parameter of every tool', () => {
    for (const {tool, inputSchema} of createTools(DEFAULT_CONFIG)) {
      const start = doc.indexOf(`### \`${tool.name}\``);
      assert.ok(start >= 0, `${tool.name} is missing`);
      const end = doc.indexOf('\n### ', start + 1);
      const section = doc.slice(start, end < 0 ? undefined : end);
      for (const name of Object.keys(inputSchema['properties'] ?? {})) {
        assert.ok(section.includes(`| \`${name}\` |`), `${tool.name}.${name} is missing`);
      }
    }
  });

  it('names the flag of a gated tool and the category', () => {
    assert.match(doc, /### `install_pwa`\n\nCategory: Progressive Web Apps · Enabled by: `--categoryPwa`/);
    assert.match(doc, /### `click_at`\n\nCategory: Input automation · Enabled by: `--experimentalVision`/);
    assert.match(doc, /### `navigate`\n\nCategory: Navigation automation · Enabled by: `--slim`/);
  });
});
