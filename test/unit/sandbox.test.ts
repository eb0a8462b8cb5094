import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import {tmpdir} from 'node:os';
import {basename, join} from 'node:path';
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

  const sandbox = async () => {
    const s = new PathSandbox({trustClientRoots: true});
    await s.setRoots([pathToFileURL(root).href]);
    return s;
  };

  it('allows paths inside a root, including ones that do not exist yet', async () => {
    assert.equal(await (await sandbox()).validate(join(root, 'sub', 'a.png')), join(root, 'sub', 'a.png'));
    assert.equal(
      await (await sandbox()).validate(join(root, 'new', 'deeper', 'b.txt')),
      join(root, 'new', 'deeper', 'b.txt'),
    );
  });

  it('always allows the OS temp dir', async () => {
    const p = join(tmpdir(), 'x.png');
    assert.equal(await (await sandbox()).validate(p), await canonicalPath(p));
  });

  it('rejects traversal out of a root', async () => {
    await assert.rejects(
      (await sandbox()).validate(join(root, 'sub', '..', '..', 'evil.txt')),
      /Access denied: path .* is not within any of the configured workspace roots/,
    );
  });

  it('rejects a symlink that leads outside', async () => {
    await assert.rejects((await sandbox()).validate(join(root, 'escape', 'x.txt')), /canonical: .*\/outside\/x\.txt/);
  });

  it('rejects paths through a dangling symlink', async () => {
    await assert.rejects((await sandbox()).validate(join(root, 'dangling', 'x.txt')), /Cannot resolve base path/);
  });

  it('rejects everything outside temp when the client has no roots, unless unrestricted', async () => {
    const noRoots = new PathSandbox({trustClientRoots: true});
    await assert.rejects(noRoots.validate(join(root, 'a.txt')), /Access denied/);
    const unrestricted = new PathSandbox({operatorRoots: ['/'], trustClientRoots: true});
    assert.equal(await unrestricted.validate(join(root, 'a.txt')), join(root, 'a.txt'));
  });

  it('uses --filesystemRoot directories when the client sends no roots; client roots only narrow them', async () => {
    const configured = new PathSandbox({operatorRoots: [root], trustClientRoots: true});
    assert.equal(await configured.validate(join(root, 'a.txt')), join(root, 'a.txt'));
    await assert.rejects(configured.validate(join(outside, 'a.txt')), /Access denied/);
    // A root beside the operator's gives nothing; one that contains it gives the operator's; one inside it stands.
    await configured.setRoots([pathToFileURL(outside).href]);
    await assert.rejects(configured.validate(join(outside, 'a.txt')), /Access denied/);
    await assert.rejects(configured.validate(join(root, 'a.txt')), /Access denied/);
    await configured.setRoots(['file:///']);
    await assert.rejects(configured.validate(join(outside, 'a.txt')), /Access denied/);
    assert.equal(await configured.validate(join(root, 'a.txt')), join(root, 'a.txt'));
    await configured.setRoots([pathToFileURL(join(root, 'sub')).href]);
    assert.equal(await configured.validate(join(root, 'sub', 'a.txt')), join(root, 'sub', 'a.txt'));
    await assert.rejects(configured.validate(join(root, 'a.txt')), /Access denied/);
  });

  it("trusts the owner's roots without --filesystemRoot; any other client's give nothing", async () => {
    const owner = new PathSandbox({trustClientRoots: true});
    await owner.setRoots([pathToFileURL(outside).href]);
    assert.equal(await owner.validate(join(outside, 'a.txt')), join(outside, 'a.txt'));
    const other = new PathSandbox({});
    await other.setRoots(['file:///', pathToFileURL(outside).href]);
    await assert.rejects(other.validate(join(outside, 'a.txt')), /Access denied/);
  });

  it('gives a private session its own folder instead of the temp dir, and removes it at the end', async () => {
    const session = new PathSandbox({privateFolder: true});
    await assert.rejects(session.validate(join(tmpdir(), 'x.png')), /Access denied/);
    const saved = await session.saveTemporary('data', 'shot.png');
    const folder = await session.outputDir();
    assert.ok(saved.startsWith(folder + '/'), saved);
    assert.equal(statSync(folder).mode & 0o777, 0o700);
    assert.equal(await session.validate(saved), saved);
    await session.dispose();
    assert.equal(existsSync(folder), false);
  });

  it('refuses to read or overwrite a file with another hard link, and leaves it as it was', async () => {
    const s = await sandbox();
    const target = join(outside, 'linked.json');
    writeFileSync(target, '{"secret":1}');
    linkSync(target, join(root, 'hard.json'));
    await assert.rejects(s.read(join(root, 'hard.json'), 1000), /has 2 hard links/);
    await assert.rejects(s.save('x', join(root, 'hard.json'), '.json'), /has 2 hard links/);
    assert.equal(readFileSync(target, 'utf8'), '{"secret":1}');
  });

  it('refuses a FIFO at once instead of blocking on it', async () => {
    const s = await sandbox();
    const fifo = join(root, 'pipe.json');
    execFileSync('mkfifo', [fifo]);
    await assert.rejects(s.read(fifo, 1000), /not a regular file/);
    await assert.rejects(s.save('x', fifo, '.json'), /not a regular file|ENXIO/);
  });

  it('copies a file privately, with its name and modification time', async () => {
    const s = await sandbox();
    const original = join(root, 'upload.txt');
    writeFileSync(original, 'content');
    const copy = await s.privateCopy(original);
    assert.notEqual(copy, original);
    assert.equal(basename(copy), 'upload.txt');
    assert.equal(readFileSync(copy, 'utf8'), 'content');
    assert.ok(
      Math.abs(statSync(copy).mtimeMs - statSync(original).mtimeMs) < 1,
      'the copy keeps the modification time',
    );
    await s.dispose();
  });

  it('saves with the forced extension, creating folders, mode 0600', async () => {
    const saved = await (await sandbox()).save('data', join(root, 'out', 'shot.jpg'), '.png');
    assert.equal(saved, join(root, 'out', 'shot.png'));
    assert.equal(readFileSync(saved, 'utf8'), 'data');
    assert.equal(statSync(saved).mode & 0o777, 0o600);
  });

  it('does not write through a symlink at the file itself', async () => {
    const target = join(outside, 'victim.txt');
    writeFileSync(target, 'original');
    symlinkSync(target, join(root, 'link.txt'));
    await assert.rejects((await sandbox()).save('x', join(root, 'link.txt'), '.txt'), /Access denied|Could not write/);
    assert.equal(readFileSync(target, 'utf8'), 'original');
  });

  it('replaces or adds extensions', () => {
    assert.equal(withExtension('/a/b.jpg', '.jpeg'), '/a/b.jpeg');
    assert.equal(withExtension('/a/out', '.png'), '/a/out.png');
  });
});
