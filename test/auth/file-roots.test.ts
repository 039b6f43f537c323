/** Server-side paths resolved under configured roots (auth/file-roots.ts). */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import {
  FileRootError,
  importRoots,
  resolveReadable,
  resolveWritable,
  resolveWritableDir,
  type FileRoot,
} from '../../src/auth/file-roots.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'ocelot-roots-')));
after(() => rmSync(base, { recursive: true, force: true }));
const a = join(base, 'a');
const b = join(base, 'b');
const outside = join(base, 'outside');
for (const d of [a, b, outside, join(a, 'sub')]) mkdirSync(d, { recursive: true });
writeFileSync(join(a, 'one.csv'), '1');
writeFileSync(join(a, 'sub', 'two.csv'), '2');
writeFileSync(join(b, 'three.csv'), '3');
writeFileSync(join(outside, 'secret.txt'), 's');
symlinkSync(join(outside, 'secret.txt'), join(a, 'to-secret'));
symlinkSync(outside, join(a, 'to-outside-dir'));
symlinkSync(join(a, 'one.csv'), join(a, 'to-one'));
symlinkSync(join(a, 'nothing'), join(a, 'dangling'));
const roots = importRoots([a, b]);

function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof FileRootError, String(e));
    return e.reason;
  }
  assert.fail('not refused');
}

test('reading: relative paths are looked up in each root in order, absolute ones must lie in one', () => {
  assert.equal(resolveReadable(roots, 'one.csv'), join(a, 'one.csv'));
  assert.equal(resolveReadable(roots, 'sub/two.csv'), join(a, 'sub', 'two.csv'));
  assert.equal(resolveReadable(roots, 'three.csv'), join(b, 'three.csv'));
  assert.equal(resolveReadable(roots, join(b, 'three.csv')), join(b, 'three.csv'));
  assert.equal(resolveReadable(roots, 'sub'), join(a, 'sub'));
  // A link that stays inside its root is followed.
  assert.equal(resolveReadable(roots, 'to-one'), join(a, 'one.csv'));
  assert.match(
    refusal(() => resolveReadable(roots, 'nope.csv')),
    /^no such file in the import directory .* or the import directory/,
  );
});

test("reading: '..', absolute paths elsewhere and links out of a root are refused", () => {
  for (const given of ['../outside/secret.txt', 'sub/../one.csv', '..', 'a/..\\b']) {
    assert.equal(
      refusal(() => resolveReadable(roots, given)),
      "a path may not contain '..'",
      given,
    );
  }
  assert.match(
    refusal(() => resolveReadable(roots, '/etc/passwd')),
    /^it is outside the import directory/,
  );
  assert.match(
    refusal(() => resolveReadable(roots, join(outside, 'secret.txt'))),
    /^it is outside/,
  );
  assert.match(
    refusal(() => resolveReadable(roots, 'to-secret')),
    /^it leads out of the import directory .* through a symbolic link$/,
  );
  assert.match(
    refusal(() => resolveReadable(roots, 'to-outside-dir/secret.txt')),
    /through a symbolic link/,
  );
  assert.match(
    refusal(() => resolveReadable(roots, join(a, 'to-secret'))),
    /through a symbolic link/,
  );
  assert.equal(
    refusal(() => resolveReadable(roots, '')),
    'the path is empty',
  );
  assert.equal(
    refusal(() => resolveReadable([], 'one.csv')),
    'this server reads no files',
  );
});

test('writing a file: inside the root only, never through a link out, never onto a directory', () => {
  const root: FileRoot = { dir: a, name: 'the output directory' };
  assert.equal(resolveWritable(root, 'new.csv'), join(a, 'new.csv'));
  assert.equal(resolveWritable(root, join(a, 'sub', 'new.csv')), join(a, 'sub', 'new.csv'));
  assert.equal(resolveWritable(root, 'to-one'), join(a, 'one.csv'));
  assert.equal(
    refusal(() => resolveWritable(root, '../x.csv')),
    "a path may not contain '..'",
  );
  assert.equal(
    refusal(() => resolveWritable(root, '/tmp/x.csv')),
    'it is outside the output directory',
  );
  assert.equal(
    refusal(() => resolveWritable(root, 'to-secret')),
    'it is outside the output directory',
  );
  assert.equal(
    refusal(() => resolveWritable(root, 'dangling')),
    'it is a symbolic link to a file that does not exist',
  );
  assert.equal(
    refusal(() => resolveWritable(root, 'sub')),
    'it is a directory',
  );
  assert.equal(
    refusal(() => resolveWritable(root, 'nodir/x.csv')),
    'the directory nodir does not exist in the output directory',
  );
  assert.equal(
    refusal(() => resolveWritable(root, 'to-outside-dir/x.csv')),
    'it is outside the output directory',
  );
  assert.equal(
    refusal(() => resolveWritable(undefined, 'x.csv')),
    'this server writes no files',
  );
});

test('writing into a directory: an existing one inside the root, or a new one made owner-only', () => {
  const root: FileRoot = { dir: a, name: 'the output directory' };
  assert.equal(resolveWritableDir(root, 'sub'), join(a, 'sub'));
  const made = resolveWritableDir(root, 'summaries');
  assert.equal(made, join(a, 'summaries'));
  assert.equal(statSync(made).mode & 0o777, 0o700);
  assert.equal(resolveWritableDir(root, 'summaries'), made);
  assert.equal(
    refusal(() => resolveWritableDir(root, 'to-outside-dir')),
    `it leads out of the output directory through a symbolic link`,
  );
  assert.equal(
    refusal(() => resolveWritableDir(root, 'one.csv')),
    'it is not a directory',
  );
  assert.equal(
    refusal(() => resolveWritableDir(root, 'x/y')),
    'the directory x does not exist in the output directory',
  );
  assert.equal(
    refusal(() => resolveWritableDir(root, '/etc')),
    'it is outside the output directory',
  );
});
