#!/usr/bin/env node
// Regenerates protocol/protocol.json (the CDP descriptor we hand to
// chrome-remote-interface) from the pinned devtools-protocol package, so that
// connecting never downloads /json/protocol from the browser.
import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

const require = createRequire(import.meta.url);
const pkgDir = dirname(require.resolve('devtools-protocol/package.json'));
const version = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).version;
const browser = JSON.parse(readFileSync(join(pkgDir, 'json/browser_protocol.json'), 'utf8'));
const js = JSON.parse(readFileSync(join(pkgDir, 'json/js_protocol.json'), 'utf8'));

const merged = {
  version: browser.version,
  devtoolsProtocolPackage: version,
  domains: [...js.domains, ...browser.domains],
};
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'protocol', 'protocol.json');
const text = JSON.stringify(merged) + '\n';
const before = existsSync(out) ? readFileSync(out, 'utf8') : '';
writeFileSync(out, text);
const commands = merged.domains.reduce((n, d) => n + (d.commands?.length ?? 0), 0);
console.log(
  `${before === text ? 'unchanged' : 'updated'}: protocol/protocol.json from devtools-protocol@${version} ` +
    `(${merged.domains.length} domains, ${commands} commands)`,
);
