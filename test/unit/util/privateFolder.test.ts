import assert from 'node:assert/strict';
import {chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {ensurePrivateFolder} from '../../../src/util/privateFolder.js';

/** A uid that is not ours. */
const OTHER_UID = 12_345;

describe('ensurePrivateFolder', () => {
  let base: string;

  before(() => {
    base = mkdtempSync(join(tmpdir(), 'cdp-mcp-private-'));
  });

  after(() => rmSync(base, {recursive: true, force: true}));

  it('creates the folder for its owner only', async () => {
    const dir = join(base, 'new');
    await ensurePrivateFolder(dir);
    assert.ok(statSync(dir).isDirectory());
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    await ensurePrivateFolder(dir);
  });

  it('closes a folder of ours that others could read', async () => {
    const dir = join(base, 'loose');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    await ensurePrivateFolder(dir);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
  });

  it('refuses a symbolic link, even to a folder of ours', async () => {
    const target = join(base, 'target');
    mkdirSync(target);
    const link = join(base, 'link');
    symlinkSync(target, link);
    await assert.rejects(ensurePrivateFolder(link), {
      message: `${link} is a symbolic link, not a folder: downloads could be sent anywhere. Remove it, or pass --downloadsDir with a folder of yours.`,
    });
  });

  it('refuses a file', async () => {
    const file = join(base, 'file');
    writeFileSync(file, 'x');
    await assert.rejects(ensurePrivateFolder(file), /is not a folder\. Remove it, or pass --downloadsDir/);
  });

  it("refuses another user's folder", async () => {
    // As root, make one; otherwise / is another user's (root's).
    let dir = '/';
    if (process.getuid?.() === 0) {
      dir = join(base, 'theirs');
      mkdirSync(dir);
      chownSync(dir, OTHER_UID, OTHER_UID);
    }
    await assert.rejects(
      ensurePrivateFolder(dir),
      /belongs to another user \(uid \d+\), who could read the downloads\./,
    );
  });
});
