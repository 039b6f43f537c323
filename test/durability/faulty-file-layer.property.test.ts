/**
 * The faulty layer against a tiny independent model of one directory: file contents are durable
 * as of each file's last fsync, names as of the directory's last fsync. Random operations go to the
 * layer and the model; the files on disk must match the model's live state at every step, and its
 * durable state after every simulated power cut.
 */
import assert from 'node:assert/strict';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { FaultyFileLayer } from '../../src/durability/index.js';
import { withTmpDir } from './tmp-dir.js';

const NAMES = ['a', 'b', 'c', 'd'];

type Op =
  | { t: 'create'; name: string }
  | { t: 'write'; name: string; pos: number; data: number[] }
  | { t: 'truncate'; name: string; len: number }
  | { t: 'sync'; name: string }
  | { t: 'rename'; from: string; to: string }
  | { t: 'unlink'; name: string }
  | { t: 'syncDir' }
  | { t: 'crash' };

const name = fc.constantFrom(...NAMES);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant('create' as const), name }),
  fc.record({
    t: fc.constant('write' as const),
    name,
    pos: fc.nat(12),
    data: fc.array(fc.integer({ min: 65, max: 90 }), { minLength: 1, maxLength: 6 }),
  }),
  fc.record({ t: fc.constant('truncate' as const), name, len: fc.nat(10) }),
  fc.record({ t: fc.constant('sync' as const), name }),
  fc.record({ t: fc.constant('rename' as const), from: name, to: name }),
  fc.record({ t: fc.constant('unlink' as const), name }),
  fc.constant({ t: 'syncDir' as const }),
  fc.constant({ t: 'crash' as const }),
);

interface ModelFile {
  live: number[];
  durable: number[];
}

function writeAt(bytes: number[], pos: number, data: number[]): number[] {
  const out = bytes.slice();
  while (out.length < pos) out.push(0);
  data.forEach((b, i) => (out[pos + i] = b));
  return out;
}

function resize(bytes: number[], len: number): number[] {
  const out = bytes.slice(0, len);
  while (out.length < len) out.push(0);
  return out;
}

async function diskState(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of (await readdir(dir)).sort()) out[f] = (await readFile(join(dir, f))).toString('latin1');
  return out;
}

function modelState(names: Map<string, ModelFile>, durable: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of [...names.keys()].sort()) {
    const f = names.get(n)!;
    out[n] = Buffer.from(durable ? f.durable : f.live).toString('latin1');
  }
  return out;
}

async function run(ops: Op[]): Promise<void> {
  await withTmpDir(async (dir) => {
    // A file that exists before the layer first looks: durable as found.
    await writeFile(join(dir, 'a'), 'PRE');
    const fs = new FaultyFileLayer();
    let live = new Map<string, ModelFile>([
      ['a', { live: [...Buffer.from('PRE')], durable: [...Buffer.from('PRE')] }],
    ]);
    let durableNames = new Map(live);
    for (const o of ops) {
      const path = (n: string): string => join(dir, n);
      switch (o.t) {
        case 'create': {
          await (await fs.open(path(o.name), 'create')).close();
          const f = live.get(o.name);
          if (f) f.live = [];
          else live.set(o.name, { live: [], durable: [] });
          break;
        }
        case 'write': {
          const f = live.get(o.name);
          if (!f) continue;
          const h = await fs.open(path(o.name), 'write');
          await h.write(Buffer.from(o.data), o.pos);
          await h.close();
          f.live = writeAt(f.live, o.pos, o.data);
          break;
        }
        case 'truncate': {
          const f = live.get(o.name);
          if (!f) continue;
          await fs.truncate(path(o.name), o.len);
          f.live = resize(f.live, o.len);
          break;
        }
        case 'sync': {
          const f = live.get(o.name);
          if (!f) continue;
          const h = await fs.open(path(o.name), 'write');
          await h.sync();
          await h.close();
          f.durable = f.live.slice();
          break;
        }
        case 'rename': {
          const f = live.get(o.from);
          if (!f || o.from === o.to) continue;
          await fs.rename(path(o.from), path(o.to));
          live.delete(o.from);
          live.set(o.to, f);
          break;
        }
        case 'unlink': {
          if (!live.has(o.name)) continue;
          await fs.unlink(path(o.name));
          live.delete(o.name);
          break;
        }
        case 'syncDir':
          await fs.syncDir(dir);
          durableNames = new Map(live);
          break;
        case 'crash': {
          await fs.crash();
          assert.deepEqual(await diskState(dir), modelState(durableNames, true), 'after a power cut');
          live = new Map();
          for (const [n, f] of durableNames) {
            // A file under two durable names becomes two files; each restarts from its durable bytes.
            live.set(n, { live: f.durable.slice(), durable: f.durable.slice() });
          }
          durableNames = new Map(live);
          continue;
        }
      }
      assert.deepEqual(await diskState(dir), modelState(live, false), `after ${JSON.stringify(o)}`);
    }
  });
}

test('the faulty layer matches an independent durability model of a directory', async () => {
  await fc.assert(fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 30 }), run), { numRuns: 100 });
});
