/**
 * kill -9 test: a child process appends as fast as it can and reports each acknowledged LSN on
 * stdout; it is killed at a random moment; the data directory must then open (lock taken over),
 * and hold every acknowledged record, intact and in order.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { test } from 'node:test';
import { DataDir } from '../../src/durability/index.js';
import { withTmpDir } from './tmp-dir.js';
import { scaled } from '../timing.js';

function payload(lsn: number): string {
  return `record-${lsn}-`.padEnd(20 + (lsn % 50), 'x');
}

async function killRound(path: string, mode: 'always' | 'none', afterMs: number): Promise<number> {
  const moduleUrl = new URL('../../src/durability/index.js', import.meta.url).href;
  const script = `
    const { DataDir } = await import(${JSON.stringify(moduleUrl)});
    const payload = ${payload.toString()};
    const dd = await DataDir.open({ path: ${JSON.stringify(path)}, syncMode: '${mode}', segmentSize: 4096 });
    const { wal } = await dd.recover();
    console.log('ready');
    for (;;) {
      const batch = [];
      for (let i = 0; i < 8; i++) {
        const lsn = wal.lastLsn + 1;
        batch.push(wal.append(Buffer.from(payload(lsn))).then((got) => {
          if (got !== lsn) throw new Error('LSN mismatch');
          process.stdout.write('ack ' + got + '\\n');
        }));
      }
      await Promise.all(batch);
    }`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  // Kill only once writing is under way, so that every round has something to lose.
  const exit = once(child, 'exit');
  while (!out.includes('ack ')) {
    const ended = await Promise.race([once(child.stdout!, 'data').then(() => false), exit.then(() => true)]);
    if (ended) throw new Error('the writer process exited before writing');
  }
  await new Promise((r) => setTimeout(r, afterMs));
  child.kill('SIGKILL');
  await exit;
  let acked = 0;
  for (const m of out.matchAll(/^ack (\d+)$/gm)) acked = Math.max(acked, Number(m[1]));
  return acked;
}

test(
  'SIGKILL at random moments never loses an acknowledged record',
  { timeout: scaled(120_000) },
  async () => {
    await withTmpDir(async (root) => {
      const path = join(root, 'd');
      let total = 0;
      for (let round = 0; round < 4; round++) {
        const mode = round % 2 === 0 ? 'always' : 'none';
        const acked = await killRound(path, mode, 50 + Math.floor(Math.random() * 150));
        // A process kill loses nothing the kernel has: even 'none' keeps every written record.
        const dd = await DataDir.open({ path });
        const { records } = await dd.recover();
        let expect = 1;
        for await (const r of records) {
          assert.equal(r.lsn, expect);
          assert.equal(Buffer.from(r.payload).toString(), payload(r.lsn));
          expect++;
        }
        await dd.close();
        assert.ok(expect - 1 >= acked, `round ${round}: ${acked} acknowledged, ${expect - 1} recovered`);
        assert.ok(expect - 1 > total, `round ${round} made progress`);
        total = expect - 1;
      }
    });
  },
);
