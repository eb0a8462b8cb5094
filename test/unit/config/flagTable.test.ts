import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {helpText} from '../../../src/config/flagDocs.js';
import {FLAG_RULES} from '../../../src/config/flagRules.js';
import {FLAG_GROUPS, type FlagSpec} from '../../../src/config/flagSpec.js';
import {FLAGS} from '../../../src/config/flagTable.js';
import {type Config, DEFAULT_CONFIG, parseConfig} from '../../../src/config/options.js';

const entries = Object.entries(FLAGS) as Array<[string, FlagSpec]>;

// Compile-time: the Config fields inferred from the table have the types callers rely on.
const typed = {
  channel: 'beta',
  screenshotFormat: 'webp',
  viewport: {width: 1, height: 2},
  wsHeaders: {Authorization: 'Bearer x'},
  chromeArgs: ['--lang=de'],
  blockedUrlPatterns: ['*://x/*'],
  screenshotQuality: 50,
  pageIdRouting: false,
  unknown: [],
} satisfies Partial<Config>;
/** The flags a flag needs (flagRules.ts), given with their smallest value, e.g. --port=0 for --host. */
function neededBy(name: string): string[] {
  return FLAG_RULES.flatMap(rule => ('flag' in rule && rule.flag === name ? rule.needs.slice(0, 1) : [])).map(need => {
    const spec: FlagSpec = FLAGS[need];
    return spec.type === 'number' ? `--${need}=${spec.min ?? 0}` : `--${need}`;
  });
}

const required: Array<keyof Config> = ['headless', 'pageIdRouting', 'screenshotFormat', 'chromeArgs', 'unknown'];

describe('flag table', () => {
  it('gives every flag a description, a known group and spellings that do not collide', () => {
    const spellings = new Map<string, string>();
    for (const [name, spec] of entries) {
      assert.match(spec.description, /[.)]$/, `--${name}: the description is a sentence`);
      assert.ok(spec.group in FLAG_GROUPS, `--${name}: unknown group ${spec.group}`);
      for (const spelling of [name, ...(spec.alias ?? [])]) {
        assert.equal(spellings.get(spelling), undefined, `--${name}: "${spelling}" is also ${spellings.get(spelling)}`);
        spellings.set(spelling, name);
      }
    }
  });

  it('maps each flag with an effect to its own Config field, and the others to none', () => {
    const keys = entries.filter(([, spec]) => !spec.noEffect).map(([name, spec]) => spec.key ?? name);
    assert.equal(new Set(keys).size, keys.length);
    assert.deepEqual(Object.keys(DEFAULT_CONFIG).sort(), [...keys, 'unknown'].sort());
    for (const [name] of entries.filter(([, s]) => s.noEffect)) {
      assert.equal(name in DEFAULT_CONFIG, false, `--${name} has no effect but a Config field`);
      assert.doesNotThrow(() => parseConfig([`--${name}`, `--no-${name}`]));
    }
    for (const key of required) {
      assert.notEqual(DEFAULT_CONFIG[key], undefined, key);
    }
    assert.equal(typed.channel, 'beta');
  });

  it('has defaults that pass their own checks', () => {
    for (const [name, spec] of entries) {
      if (spec.type === 'string' && spec.default !== undefined) {
        assert.doesNotThrow(() => parseConfig([`--${name}`, spec.default ?? '', ...neededBy(name)]), name);
      }
      if (spec.type === 'number' && spec.default !== undefined) {
        assert.doesNotThrow(() => parseConfig([`--${name}=${spec.default}`, ...neededBy(name)]), name);
      }
    }
    assert.equal(DEFAULT_CONFIG.screenshotFormat, 'png');
    assert.equal(DEFAULT_CONFIG.pageIdRouting, true);
    assert.equal(DEFAULT_CONFIG.headless, false);
    assert.deepEqual(DEFAULT_CONFIG.chromeArgs, []);
  });

  it('derives the checks from the entries: choices, ranges, parsers', () => {
    assert.throws(() => parseConfig(['--screenshotFormat', 'gif']), {
      message: '--screenshotFormat must be png, jpeg or webp, not "gif".',
    });
    assert.throws(() => parseConfig(['--screenshotQuality=-1']), {
      message: '--screenshotQuality must be between 0 and 100, not -1.',
    });
    assert.throws(() => parseConfig(['--blockedUrlPattern', 'https://exa mple.com/*']), /is not a valid URL pattern/);
    assert.deepEqual(parseConfig(['--allowedUrlPattern', '*://*.example.com/*']).allowedUrlPatterns, [
      '*://*.example.com/*',
    ]);
    assert.throws(() => parseConfig(['--wsEndpoint', 'http://x']), /must be a ws:\/\/ or wss:\/\/ URL/);
  });

  it('checks relations between flags with messages that name both sides', () => {
    assert.throws(() => parseConfig(['--allowedUrlPattern', '*://a/*', '--blockedUrlPattern', '*://b/*']), {
      message: 'Use either --blockedUrlPattern or --allowedUrlPattern, not both.',
    });
    assert.throws(() => parseConfig(['--wsEndpoint', 'ws://a', '--channel', 'beta']), /for launching/);
    // A flag given as false or empty does not count as set.
    assert.equal(parseConfig(['--isolated=false', '--userDataDir', '/x']).userDataDir, '/x');
  });

  it('documents every flag in --help with its value, default and relations', () => {
    const help = helpText();
    assert.match(help, /^ {2}--browserUrl, -u <url>$/m);
    assert.match(help, /^ {2}--screenshotFormat <png\|jpeg\|webp> {2}\(default: png\)$/m);
    assert.match(help, /^ {2}--screenshotQuality <0-100>$/m);
    assert.match(
      help,
      /Not with --browserUrl, --executablePath, --userDataDir, --channel, --autoConnect or\s+--categoryPwa\./,
    );
    assert.match(help, /Needs --wsEndpoint\./);
    assert.match(help, /Accepted for compatibility; no\s+effect: this server collects and sends no\s+usage statistics/);
    assert.doesNotMatch(help, /`/, 'code spans are plain text in --help');
    for (const line of help.split('\n')) {
      assert.ok(line.length <= 100, `--help line over 100 columns: ${line}`);
    }
  });
});
