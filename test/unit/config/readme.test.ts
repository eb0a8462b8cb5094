import assert from 'node:assert/strict';
import {existsSync, readdirSync} from 'node:fs';
import {dirname, join, normalize} from 'node:path';
import {describe, it} from 'node:test';
import {fileURLToPath} from 'node:url';

import {GENERATED_FILES, readRepoFile, withGeneratedBlocks} from '../../../scripts/readmeDocs.js';
import {helpText} from '../../../src/config/flagDocs.js';
import {FLAGS} from '../../../src/config/flagTable.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** The README is a front door: what, set-up, the main ways in; everything else is in docs/. */
const README_MAX_BYTES = 25 * 1024;

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings (outside code blocks). */
function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) {
      fenced = !fenced;
    } else if (!fenced && /^#{1,6} /.test(line)) {
      found.add(slug(line.replace(/^#+ /, '')));
    }
  }
  return found;
}

/** Relative links ([text](target)) of a Markdown file, outside code blocks and code spans. */
function relativeLinks(markdown: string): string[] {
  const text = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map(m => m[1] ?? '').filter(target => !/^[a-z]+:/i.test(target));
}

const MARKDOWN_FILES = ['README.md', ...readdirSync(join(ROOT, 'docs')).map(f => `docs/${f}`)].filter(f =>
  f.endsWith('.md'),
);

describe('README and docs', () => {
  it('have their generated blocks up to date (run npm run gen-docs when this fails)', () => {
    for (const file of GENERATED_FILES) {
      const text = readRepoFile(file);
      const expected = withGeneratedBlocks(file, text).split('\n');
      const actual = text.split('\n');
      const line = expected.findIndex((t, i) => t !== actual[i]);
      assert.ok(
        line < 0 && expected.length === actual.length,
        `${file} is out of date: run \`npm run gen-docs\` and commit it (line ${line + 1} should be: ${expected[line]})`,
      );
    }
  });

  it('list every flag that --help lists (docs/flags.md)', () => {
    const flags = readRepoFile('docs/flags.md');
    const help = helpText();
    for (const name of Object.keys(FLAGS)) {
      assert.ok(flags.includes(`| \`--${name}\``), `--${name} is missing from docs/flags.md`);
      assert.match(help, new RegExp(`^  --${name}\\b`, 'm'), `--${name} is missing from --help`);
    }
  });

  it(`keep the README within ${README_MAX_BYTES / 1024} KB`, () => {
    const bytes = Buffer.byteLength(readRepoFile('README.md'));
    assert.ok(bytes <= README_MAX_BYTES, `README.md is ${bytes} bytes: move detail into docs/`);
  });

  it('link only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const file of MARKDOWN_FILES) {
      for (const link of relativeLinks(readRepoFile(file))) {
        const [path = '', anchor] = link.split('#');
        const target = path ? normalize(join(dirname(file), path)) : file;
        if (!existsSync(join(ROOT, target))) {
          broken.push(`${file}: ${link} (no file ${target})`);
        } else if (anchor && target.endsWith('.md') && !anchors(readRepoFile(target)).has(anchor)) {
          broken.push(`${file}: ${link} (no heading #${anchor} in ${target})`);
        }
      }
    }
    assert.deepEqual(broken, []);
  });
});
