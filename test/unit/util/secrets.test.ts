import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, describe, it} from 'node:test';
import {gunzipSync, gzipSync} from 'node:zlib';

import {secretsFile} from '../../../src/config/valueParsers.js';
import {addLogRedaction, configureLogger, warn} from '../../../src/util/logger.js';
import {PathSandbox} from '../../../src/util/sandbox.js';
import {parseDotenv, Secrets} from '../../../src/util/secrets.js';

const VALUE = 'hunter2 & "pa$$/w+rd" é';
const secrets = new Secrets({PASSWORD: VALUE, TOKEN: 'tok_live_4f9a8b7c6d5e'});
const MARK = '<secret>PASSWORD</secret>';

describe('Secrets: redaction', () => {
  it('replaces the value by its marker, every occurrence', () => {
    assert.equal(secrets.redact(`a ${VALUE} b ${VALUE}`), `a ${MARK} b ${MARK}`);
    assert.equal(secrets.redact('token=tok_live_4f9a8b7c6d5e;'), 'token=<secret>TOKEN</secret>;');
  });

  it('finds the encoded forms: JSON (once and twice), URL, form, HTML, base64', () => {
    const json = JSON.stringify(VALUE).slice(1, -1);
    const forms = [
      JSON.stringify({p: VALUE}),
      JSON.stringify(JSON.stringify({p: VALUE})),
      `?p=${encodeURIComponent(VALUE)}&x=1`,
      `p=${encodeURIComponent(VALUE).replace(/%20/g, '+')}`,
      `p=${encodeURIComponent(VALUE).replace(/%[0-9A-F]{2}/g, h => h.toLowerCase())}`,
      encodeURI(VALUE),
      `<input value="${VALUE.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`,
      Buffer.from(VALUE).toString('base64'),
      Buffer.from(VALUE).toString('base64url'),
      json,
    ];
    for (const form of forms) {
      const out = secrets.redact(form);
      assert.ok(out.includes(MARK), `not redacted: ${form} -> ${out}`);
      assert.ok(!out.includes(VALUE) && !out.includes(json), out);
    }
  });

  it('finds base64 of the value inside a longer base64 text, at every alignment', () => {
    for (const prefix of ['', 'a', 'ab', 'abc', '{"user":"x","password":"']) {
      const body = Buffer.from(`${prefix}${VALUE}","more":"stuff"}`).toString('base64');
      const out = secrets.redact(body);
      assert.ok(out.includes(MARK), `prefix ${JSON.stringify(prefix)}: ${out}`);
    }
  });

  it('redacts bytes, keys and values of structured content', () => {
    const bytes = secrets.redactBytes(Buffer.from(`x${VALUE}y`, 'utf8'));
    assert.equal(Buffer.from(bytes).toString('utf8'), `x${MARK}y`);
    assert.deepEqual(secrets.redactDeep({[VALUE]: [VALUE, 1, {t: `a${VALUE}`}], n: null}), {
      [MARK]: [MARK, 1, {t: `a${MARK}`}],
      n: null,
    });
  });

  it('redacts a value split across the pieces of a stream, at every cut', () => {
    const text = `{"strings":["${JSON.stringify(VALUE).slice(1, -1)}","tok_live_4f9a8b7c6d5e"]}`;
    for (let cut = 0; cut <= text.length; cut++) {
      let out = '';
      const writer = secrets.writer(chunk => (out += chunk));
      writer.write(text.slice(0, cut));
      writer.write(text.slice(cut));
      writer.end();
      assert.equal(out, secrets.redact(text), `cut at ${cut}`);
    }
    let out = '';
    const writer = secrets.writer(chunk => (out += chunk));
    for (const char of text) {
      writer.write(char);
    }
    writer.end();
    assert.equal(out, secrets.redact(text));
  });

  it('resolves a name or its marker to the value, anything else to itself', () => {
    assert.equal(secrets.resolve('PASSWORD'), VALUE);
    assert.equal(secrets.resolve(MARK), VALUE);
    assert.equal(secrets.resolve('password'), 'password');
    assert.equal(secrets.resolve(' PASSWORD'), ' PASSWORD');
    assert.equal(secrets.resolve('<secret>NOPE</secret>'), '<secret>NOPE</secret>');
  });
});

describe('Secrets: files and logs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-mcp-secrets-'));
  after(() => rmSync(dir, {recursive: true, force: true}));

  it('reads dotenv files as the dotenv package does', () => {
    assert.deepEqual(
      parseDotenv(
        [
          '# comment',
          'A=plain value # comment',
          'export B="double\\nquoted"',
          "C='single # kept'",
          'D = spaced ',
          'E="multi',
          'line"',
          '',
        ].join('\n'),
      ),
      {A: 'plain value', B: 'double\nquoted', C: 'single # kept', D: 'spaced', E: 'multi\nline'},
    );
  });

  it('refuses a missing file, an empty one, an empty value, with what to do', () => {
    assert.throws(() => secretsFile(join(dir, 'none.env'), 'secrets'), /no such file.*dotenv/);
    writeFileSync(join(dir, 'empty.env'), '# nothing\n');
    assert.throws(() => secretsFile(join(dir, 'empty.env'), 'secrets'), /no secrets in it/);
    writeFileSync(join(dir, 'blank.env'), 'A=1\nB=\n');
    assert.throws(() => secretsFile(join(dir, 'blank.env'), 'secrets'), /B has an empty value/);
  });

  it('writes files without the values: text, bytes, gzip, streamed; pixels untouched', async () => {
    const files = new PathSandbox({operatorRoots: [dir], secrets});
    const text = await files.save(`a ${VALUE}`, join(dir, 'a.txt'), '.txt');
    assert.equal(readFileSync(text, 'utf8'), `a ${MARK}`);
    const bytes = await files.save(Buffer.from(`b ${VALUE}`), join(dir, 'b.json'), '.json');
    assert.equal(readFileSync(bytes, 'utf8'), `b ${MARK}`);
    const gz = await files.save(gzipSync(`c ${VALUE}`), join(dir, 'c.json.gz'), '.gz');
    assert.equal(gunzipSync(readFileSync(gz)).toString('utf8'), `c ${MARK}`);
    const streamed = await files.saveStreamed(join(dir, 'd.heapsnapshot'), '.heapsnapshot', async write => {
      for (const char of `d ${VALUE} e`) {
        write(char);
      }
    });
    assert.equal(readFileSync(streamed, 'utf8'), `d ${MARK} e`);
    const png = await files.save(Buffer.from(VALUE), join(dir, 'e.png'), '.png');
    assert.equal(readFileSync(png, 'utf8'), VALUE);
  });

  it('redacts log lines', () => {
    const lines: string[] = [];
    configureLogger({sink: (_level, message) => lines.push(message)});
    const stop = addLogRedaction(text => secrets.redact(text));
    try {
      warn('typed', VALUE, {v: VALUE});
    } finally {
      stop();
      configureLogger({});
    }
    assert.equal(lines.length, 1);
    assert.ok(!lines[0]?.includes('hunter2'), lines[0]);
  });
});
