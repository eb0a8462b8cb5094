#!/usr/bin/env node
// The size limits of the team guide (part of npm run lint): no file under src
// over 400 lines, no server-side function over 60 lines. A page-side script
// (a function sent to the page as one piece with Runtime.callFunctionOn or
// evaluate, which cannot be split into helpers the page does not have) is
// excepted when a comment right above it says "Runs in the page".
// Usage: node scripts/check-limits.mjs [root] (default src)
import {readdirSync, readFileSync, statSync} from 'node:fs';
import {join, relative, resolve} from 'node:path';

import {requireTestDep} from './test-deps.mjs';

/** TypeScript's compiler API, from the test packages (test/deps), as for typescript-eslint. */
const ts = requireTestDep('typescript');

const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 60;
/**
 * What was over a limit when this check came (Dec 2026), each with the size it
 * had then: it may shrink, never grow, and goes from this list once it fits.
 * Keys: `file` for a file's lines, `file#function` for a function's.
 */
const KNOWN = {};
/** The comment that marks a page-side script. */
const PAGE_SIDE = /runs in the page/i;

const root = resolve(process.argv[2] ?? 'src');
const files = [];
const walk = dir => {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      walk(path);
    } else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) {
      files.push(path);
    }
  }
};
walk(root);

/** A name for a function node, for the message. */
function nameOf(node, source) {
  if (node.name) {
    return node.name.getText(source);
  }
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
  ) {
    return parent.name.getText(source);
  }
  return '(anonymous)';
}

/** The comments just above the function or the statement that holds it. */
function leadingComments(node, text) {
  let holder = node;
  while (
    holder.parent &&
    !ts.isSourceFile(holder.parent) &&
    !ts.isBlock(holder.parent) &&
    !ts.isClassLike(holder.parent) &&
    !ts.isObjectLiteralExpression(holder.parent)
  ) {
    holder = holder.parent;
  }
  const ranges = [
    ...(ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []),
    ...(ts.getLeadingCommentRanges(text, holder.getFullStart()) ?? []),
  ];
  return ranges.map(range => text.slice(range.pos, range.end)).join('\n');
}

const problems = [];
const known = [];
/** Records a size over its limit: a known one that did not grow is only listed. */
const over = (key, size, message) => {
  if (KNOWN[key] !== undefined && size <= KNOWN[key]) {
    known.push(`${key} (${size})`);
  } else {
    problems.push(KNOWN[key] !== undefined ? `${message} (it had ${KNOWN[key]}: it may only shrink)` : message);
  }
};
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const name = relative(process.cwd(), file);
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > MAX_FILE_LINES) {
    over(name, lines, `${name}: ${lines} lines (at most ${MAX_FILE_LINES}): split it by what its parts do`);
  }
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = node => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const length = end - start + 1;
      if (length > MAX_FUNCTION_LINES) {
        if (PAGE_SIDE.test(leadingComments(node, text))) {
          return; // A page-side script, sent whole: its inner functions are the page's.
        }
        const fn = nameOf(node, source);
        over(
          `${name}#${fn}`,
          length,
          `${name}:${start + 1}: ${fn} has ${length} lines (at most ${MAX_FUNCTION_LINES}): ` +
            'split it into named steps (a page-side script sent as one function says "Runs in the page" above it)',
        );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
if (problems.length) {
  console.error(
    `${problems.length} size limit(s) exceeded under ${relative(process.cwd(), root) || '.'}:\n${problems.join('\n')}`,
  );
  process.exit(1);
}
const stale = Object.keys(KNOWN).filter(key => !known.some(entry => entry.startsWith(`${key} (`)));
if (stale.length) {
  console.error(`These fit their limit now: take them off KNOWN in scripts/check-limits.mjs:\n${stale.join('\n')}`);
  process.exit(1);
}
if (known.length) {
  console.log(`Still over a limit, not grown (KNOWN in scripts/check-limits.mjs): ${known.join(', ')}`);
}
console.log(
  `Size limits hold: ${files.length} files under ${relative(process.cwd(), root) || '.'}; none new over ${MAX_FILE_LINES} lines, no new server-side function over ${MAX_FUNCTION_LINES}.`,
);
