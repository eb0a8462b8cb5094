/**
 * The flag table as people read it: `--help` text and docs/flags.md's flag
 * tables (written by `npm run gen-docs`). Both come from the same facts about
 * each flag, so they cannot tell different stories.
 */
import {rulesOf} from './flagRules.js';
import {FLAG_GROUPS, type FlagGroup, type FlagSpec} from './flagSpec.js';
import {type FlagName, FLAGS} from './flagTable.js';

/** What --help and docs/flags.md say about one flag. */
export interface FlagDoc {
  /** `--name` and its aliases, e.g. `--browserUrl, -u`. */
  names: string;
  /** What the value looks like (`<url>`, `png|jpeg|webp`, `0-100`); empty for on/off flags. */
  value: string;
  /** The default, when there is one worth saying. */
  defaultValue: string;
  /** Description, then notes: repeatable, relations, no effect. Code in backticks. */
  text: string;
}

/** The value part of a flag's usage. */
function valueOf(spec: FlagSpec): string {
  switch (spec.type) {
    case 'boolean':
      return '';
    case 'string':
      return spec.choices ? spec.choices.join('|') : (spec.placeholder ?? '<value>');
    case 'number':
      return spec.min !== undefined && spec.max !== undefined
        ? `${spec.min}-${spec.max}`
        : (spec.placeholder ?? '<number>');
    case 'array':
      return spec.placeholder ?? '<value>';
  }
}

function defaultOf(spec: FlagSpec): string {
  if (spec.defaultText !== undefined) {
    return spec.defaultText;
  }
  if (spec.type === 'array') {
    return spec.default?.length ? spec.default.join(', ') : '';
  }
  if (spec.type === 'boolean') {
    // On/off flags are off unless they say otherwise.
    return spec.default === true ? 'true' : '';
  }
  return spec.default === undefined ? '' : String(spec.default);
}

/** The facts about one flag. */
export function flagDoc(name: FlagName): FlagDoc {
  const spec: FlagSpec = FLAGS[name];
  const aliases = (spec.alias ?? []).map(alias => (alias.length === 1 ? `-${alias}` : `--${alias}`));
  const notes = [spec.description];
  if (spec.type === 'array') {
    notes.push('Repeatable.');
  }
  notes.push(...rulesOf(name));
  if (spec.noEffect !== undefined) {
    notes.push(`Accepted for compatibility; no effect: ${spec.noEffect}.`);
  }
  return {
    names: [`--${name}`, ...aliases].join(', '),
    value: valueOf(spec),
    defaultValue: defaultOf(spec),
    text: notes.join(' '),
  };
}

/** The flags of each group, in table order. */
function byGroup(): Array<[FlagGroup, FlagName[]]> {
  const names = Object.keys(FLAGS) as FlagName[];
  return (Object.keys(FLAG_GROUPS) as FlagGroup[])
    .map(group => [group, names.filter(name => FLAGS[name].group === group)] as [FlagGroup, FlagName[]])
    .filter(([, members]) => members.length > 0);
}

const SYNTAX =
  'Flags take camelCase or kebab-case (--executablePath, --executable-path), values as --flag v or --flag=v; ' +
  'on/off flags are off unless their default says otherwise and negate with --no- (--no-page-id-routing) or =false; ' +
  'repeatable flags take one value each time. Unknown flags are reported and ignored; a malformed value stops the ' +
  'server with exit code 2.';

/** Splits text into lines of at most `width` columns (longer words stay whole; any run of spaces or line breaks is one space). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  return line ? [...lines, line] : lines;
}

/** Markdown code spans to plain text, for the terminal. */
function plain(text: string): string {
  return text.replace(/`([^`]*)`/g, '$1');
}

/** The text `cdp-mcp --help` prints. */
export function helpText(): string {
  const lines = [
    'Usage: cdp-mcp [flags]',
    '',
    'An MCP server (stdio, or Streamable HTTP with --port) that drives Chrome over the DevTools Protocol.',
    ...wrap(SYNTAX, 100),
  ];
  for (const [group, names] of byGroup()) {
    lines.push('', `${FLAG_GROUPS[group]}:`);
    for (const name of names) {
      const doc = flagDoc(name);
      const value = doc.value && (doc.value.startsWith('<') ? ` ${doc.value}` : ` <${doc.value}>`);
      const def = doc.defaultValue && `  (default: ${doc.defaultValue})`;
      lines.push(`  ${doc.names}${value}${def}`, ...wrap(plain(doc.text), 94).map(l => `      ${l}`));
    }
  }
  return lines.join('\n');
}

/** A Markdown table cell: pipes escaped, code spans kept. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

function code(text: string): string {
  return text ? `\`${text}\`` : '';
}

/** docs/flags.md's generated body: one table per group. */
export function flagTablesMarkdown(): string {
  const parts: string[] = [];
  for (const [group, names] of byGroup()) {
    parts.push(
      `**${FLAG_GROUPS[group]}**`,
      '',
      '| flag | value | default | what it does |',
      '| --- | --- | --- | --- |',
    );
    for (const name of names) {
      const doc = flagDoc(name);
      const names = doc.names
        .split(', ')
        .map(n => code(n))
        .join(', ');
      parts.push(`| ${names} | ${cell(code(doc.value))} | ${cell(code(doc.defaultValue))} | ${cell(doc.text)} |`);
    }
    parts.push('');
  }
  return parts.join('\n').trimEnd();
}
