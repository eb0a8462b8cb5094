import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {daemonArgs, givenArgs} from '../../../src/client/daemonArgs.js';
import {paramDocs, parseToolArgs, typeLabel, UsageError} from '../../../src/client/toolParams.js';
import {DEFAULT_CONFIG, parseConfig} from '../../../src/config/options.js';
import {createTools} from '../../../src/tools/registry.js';

const tools = createTools(parseConfig(['--viaCli']));
const input = (name: string) => {
  const found = tools.find(t => t.tool.name === name);
  assert.ok(found, name);
  return found.inputSchema;
};
const parse = (name: string, ...argv: string[]) => parseToolArgs(name, input(name), argv);

describe('CLI tool parameters', () => {
  it('reads strings, numbers, enums and booleans in every spelling', () => {
    assert.deepEqual(parse('take_screenshot', '--format', 'jpeg', '--quality=80', '--fullPage'), {
      format: 'jpeg',
      quality: 80,
      fullPage: true,
    });
    assert.deepEqual(parse('take_screenshot', '--fullPage=false'), {fullPage: false});
    assert.deepEqual(parse('take_screenshot', '--no-full-page'), {fullPage: false});
    assert.deepEqual(parse('click', '--uid', '--odd-uid', '--page-id', '2'), {uid: '--odd-uid', pageId: 2});
  });

  it("reads required parameters as plain words in schema order, chrome-devtools-mcp's CLI syntax", () => {
    assert.deepEqual(parse('click', '1_7'), {uid: '1_7'});
    assert.deepEqual(parse('click', '1_7', '--dblClick'), {uid: '1_7', dblClick: true});
    assert.deepEqual(parse('click', '--dblClick', '1_7'), {dblClick: true, uid: '1_7'});
    assert.deepEqual(parse('fill', '1_2', 'hello world'), {uid: '1_2', value: 'hello world'});
    // One given by name, the other as a word.
    assert.deepEqual(parse('fill', '--uid', '1_2', 'hi'), {uid: '1_2', value: 'hi'});
    assert.deepEqual(parse('navigate_page', '--url', 'https://example.com'), {url: 'https://example.com'});
  });

  it('reads arrays by repeating the parameter or as JSON, and objects as JSON', () => {
    const array = tools.find(t => paramDocs(t.inputSchema).some(p => p.type === 'string[]'));
    assert.ok(array, 'a tool with a string[] parameter');
    const param = paramDocs(array.inputSchema).find(p => p.type === 'string[]')?.name ?? '';
    const required = paramDocs(array.inputSchema)
      .filter(p => p.required && p.name !== param)
      .flatMap(p => [`--${p.name}`, p.schema.type === 'number' ? '1' : 'x']);
    const repeated = parseToolArgs(array.tool.name, array.inputSchema, [
      ...required,
      `--${param}`,
      'a',
      `--${param}`,
      'b',
    ]);
    assert.deepEqual(repeated[param], ['a', 'b']);
    const json = parseToolArgs(array.tool.name, array.inputSchema, [...required, `--${param}`, '["a","b"]']);
    assert.deepEqual(json[param], ['a', 'b']);
    // An object, or the same as a string: JSON is read as the object, anything else passed on as text.
    const rawCdp = createTools(parseConfig(['--experimentalRawCdp', '--viaCli'])).find(
      t => t.tool.name === 'send_cdp_command',
    );
    assert.ok(rawCdp);
    assert.equal(paramDocs(rawCdp.inputSchema).find(p => p.name === 'params')?.type, 'object (JSON) or string');
    assert.deepEqual(parseToolArgs('send_cdp_command', rawCdp.inputSchema, ['Page.reload', '--params', '{"a":1}']), {
      method: 'Page.reload',
      params: {a: 1},
    });
    assert.deepEqual(parseToolArgs('send_cdp_command', rawCdp.inputSchema, ['Page.reload', '--params', '{a']), {
      method: 'Page.reload',
      params: '{a',
    });
    assert.deepEqual(parse('fill_form', '--elements', '[{"uid":"1_2","value":"x"}]'), {
      elements: [{uid: '1_2', value: 'x'}],
    });
  });

  it('names the parameter and what it takes when a value is wrong', () => {
    const cases: Array<[string[], RegExp]> = [
      [['take_screenshot', '--quality', 'x'], /^--quality takes number 0-100, not "x"\.$/],
      [['take_screenshot', '--format', 'gif'], /^--format takes png\|jpeg\|webp, not "gif"\.$/],
      [['take_screenshot', '--fullPage=yes'], /^--fullPage is true or false, not "yes"\.$/],
      [['take_screenshot', '--format'], /^--format needs a value \(png\|jpeg\|webp\)\.$/],
      [['take_screenshot', '--format', 'png', '--format', 'jpeg'], /given twice/],
      [
        ['take_screenshot', 'shot.png'],
        /^Unexpected "shot\.png": take_screenshot takes its parameters as --name value/,
      ],
      [
        ['click', '1_7', 'extra'],
        /^Unexpected "extra": click takes its required parameters in order \(uid\), then --name value/,
      ],
      [['click', '1_7', '--uid', '1_8'], /^Unexpected "1_7": click takes its parameters as --name value/],
      [['click', '--bogus', '1'], /^Unknown parameter --bogus for click\. Its parameters: --pageId, --uid, --dblClick/],
      [['click'], /^click needs --uid <string>\.$/],
      [['fill_form', '--elements', '{'], /^--elements takes array of objects \(JSON\), and "\{" is not valid JSON\.$/],
      [['list_pages', '--x', '1'], /^Unknown parameter --x for list_pages\. Its parameters: none\.$/],
    ];
    for (const [[name = '', ...argv], message] of cases) {
      assert.throws(
        () => parse(name, ...argv),
        (error: Error) => error instanceof UsageError && message.test(error.message),
      );
    }
  });

  it('labels types from the JSON Schema', () => {
    assert.equal(typeLabel({type: 'integer', minimum: 0}), 'integer >= 0');
    assert.equal(typeLabel({type: 'array', items: {type: 'string'}}), 'string[]');
    assert.equal(typeLabel({type: 'object'}), 'object (JSON)');
    assert.equal(typeLabel({enum: ['a', 'b'], type: 'string'}), 'a|b');
  });
});

describe('the background server flags', () => {
  it('default to headless and isolated, unless given or attaching', () => {
    const args = daemonArgs(['--executablePath', '/usr/bin/chromium']);
    assert.deepEqual(givenArgs(args), ['--executablePath', '/usr/bin/chromium']);
    for (const flag of ['--viaCli', '--headless', '--isolated', '--sharedContext', '--port=0']) {
      assert.ok(args.includes(flag), flag);
    }
    const windowed = daemonArgs(['--headless=false', '--userDataDir', '/tmp/profile']);
    assert.ok(!windowed.includes('--headless') && !windowed.includes('--isolated'), windowed.join(' '));
    const attached = daemonArgs(['--browserUrl', 'http://127.0.0.1:9222']);
    assert.ok(!attached.includes('--headless') && !attached.includes('--isolated'), attached.join(' '));
    assert.equal(parseConfig(args).viaCli, true);
    assert.equal(DEFAULT_CONFIG.viaCli, false);
  });

  it('refuse the transport flags and malformed values', () => {
    assert.throws(() => daemonArgs(['--port', '1']), /--port is not for start/);
    assert.throws(() => daemonArgs(['--authToken', 'x'.repeat(20)]), /--authToken is not for start/);
    assert.throws(() => daemonArgs(['--screenshotQuality', '500']), /--screenshotQuality must be between 0 and 100/);
    assert.throws(() => daemonArgs(['--nope']), /Unknown argument for start: --nope\./);
  });
});
