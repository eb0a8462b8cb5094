import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, rmSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, describe, it} from 'node:test';

import {removeStaleSessionFolders, SESSION_FOLDER_PREFIX, SessionFolder} from '../../../src/util/sessionFolder.js';

describe('SessionFolder', () => {
  const root = mkdtempSync(join(tmpdir(), 'cdp-mcp-session-folder-test-'));

  after(() => rmSync(root, {recursive: true, force: true}));

  it('is made on first use, private, and removed with its content by dispose', async () => {
    const folder = new SessionFolder();
    assert.equal(folder.path, undefined);
    const dir = await folder.get();
    assert.equal(folder.path, dir);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    const sub = await folder.sub('downloads');
    assert.equal(statSync(sub).mode & 0o777, 0o700);
    await folder.dispose();
    assert.equal(existsSync(dir), false);
    await assert.rejects(folder.get(), /This session has ended/);
  });

  it('removes the folders of servers that are gone, and only those', () => {
    // A process that has exited: its pid names no live server.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    const stale = join(root, `${SESSION_FOLDER_PREFIX}${gone}-abcdef`);
    const live = join(root, `${SESSION_FOLDER_PREFIX}${process.pid}-abcdef`);
    const other = join(root, 'cdp-mcp-profile-abcdef');
    for (const dir of [stale, live, other]) {
      mkdirSync(dir);
    }
    removeStaleSessionFolders(root);
    assert.equal(existsSync(stale), false);
    assert.equal(existsSync(live), true);
    assert.equal(existsSync(other), true);
  });
});
