import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';
import {pathToFileURL} from 'node:url';

import {canonicalPath, PathSandbox, withExtension} from '../../src/util/sandbox.js';

describe('PathSandbox', () => {
  let root: string;
  let outside: string;
  let fakeTmp: string;
  let realTmp: string | undefined;

  before(() => {
    // The OS temp dir is always allowed, and this checkout may itself live
    // under it: point the temp dir elsewhere so that escapes are visible.
    realTmp = process.env['TMPDIR'];
    const base = mkdtempSync(join(process.cwd(), '.sandbox-'));
    fakeTmp = join(base, 'tmp');
    root = join(base, 'root');
    outside = join(base, 'outside');
    for (const dir of [fakeTmp, root, outside]) {
      mkdirSync(dir);
    }
    process.env['TMPDIR'] = fakeTmp;
    mkdirSync(join(root, 'sub'));
    symlinkSync(outside, join(root, 'escape'));
    symlinkSync(join(outside, 'not-yet'), join(root, 'dangling'));
  });

  after(() => {
    if (realTmp === undefined) {
      delete process.env['TMPDIR'];
    } else {
      process.env['TMPDIR'] = realTmp;
    }
    rmSync(join(root, '..'), {recursive: true, force: true});
  });

  const sandbox = () => {
    const s = new PathSandbox(false);
    s.setRoots([pathToFileURL(root).href]);
    return s;
  };

  it('allows paths inside a root, including ones that do not exist yet', async () => {
    assert.equal(await sandbox().validate(join(root, 'sub', 'a.png')), join(root, 'sub', 'a.png'));
    assert.equal(await sandbox().validate(join(root, 'new', 'deeper', 'b.txt')), join(root, 'new', 'deeper', 'b.txt'));
  });

  it('always allows the OS temp dir', async () => {
    const p = join(tmpdir(), 'x.png');
    assert.equal(await sandbox().validate(p), await canonicalPath(p));
  });

  it('rejects traversal out of a root', async () => {
    await assert.rejects(
      sandbox().validate(join(root, 'sub', '..', '..', 'evil.txt')),
      /Access denied: path .* is not within any of the configured workspace roots/,
    );
  });

  it('rejects a symlink that leads outside', async () => {
    await assert.rejects(sandbox().validate(join(root, 'escape', 'x.txt')), /canonical: .*\/outside\/x\.txt/);
  });

  it('rejects paths through a dangling symlink', async () => {
    await assert.rejects(sandbox().validate(join(root, 'dangling', 'x.txt')), /Cannot resolve base path/);
  });

  it('rejects everything outside temp when the client has no roots, unless unrestricted', async () => {
    const noRoots = new PathSandbox(false);
    await assert.rejects(noRoots.validate(join(root, 'a.txt')), /Access denied/);
    const unrestricted = new PathSandbox(true);
    assert.equal(await unrestricted.validate(join(root, 'a.txt')), join(root, 'a.txt'));
  });

  it('uses --filesystemRoot directories when the client sends no roots, and the client roots when it does', async () => {
    const configured = new PathSandbox(false, [root]);
    assert.equal(await configured.validate(join(root, 'a.txt')), join(root, 'a.txt'));
    await assert.rejects(configured.validate(join(outside, 'a.txt')), /Access denied/);
    configured.setRoots([pathToFileURL(outside).href]);
    assert.equal(await configured.validate(join(outside, 'a.txt')), join(outside, 'a.txt'));
    await assert.rejects(configured.validate(join(root, 'a.txt')), /Access denied/);
  });

  it('saves with the forced extension, creating folders, mode 0600', async () => {
    const saved = await sandbox().save('data', join(root, 'out', 'shot.jpg'), '.png');
    assert.equal(saved, join(root, 'out', 'shot.png'));
    assert.equal(readFileSync(saved, 'utf8'), 'data');
    assert.equal(statSync(saved).mode & 0o777, 0o600);
  });

  it('does not write through a symlink at the file itself', async () => {
    const target = join(outside, 'victim.txt');
    writeFileSync(target, 'original');
    symlinkSync(target, join(root, 'link.txt'));
    await assert.rejects(sandbox().save('x', join(root, 'link.txt'), '.txt'), /Access denied|Could not write/);
    assert.equal(readFileSync(target, 'utf8'), 'original');
  });

  it('replaces or adds extensions', () => {
    assert.equal(withExtension('/a/b.jpg', '.jpeg'), '/a/b.jpeg');
    assert.equal(withExtension('/a/out', '.png'), '/a/out.png');
  });
});
