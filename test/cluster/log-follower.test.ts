/**
 * The follower's consumer loop against a scripted JetStream client: opening a consumer may take
 * long (the client retries for minutes while JetStream does not answer), and neither stopping the
 * follower (taking the lease waits for it) nor replacing a stalled consumer may wait for it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Database } from '../../src/engine/database.js';
import { HEADER_PART, HEADER_TERM, HEADER_VERSION } from '../../src/cluster/log-format.js';
import { LogFollower } from '../../src/cluster/log-follower.js';
import type { ClusterConnection } from '../../src/cluster/nats.js';

interface FakeMessage {
  seq: number;
  data: Uint8Array;
  headers: { get(name: string): string };
}

/** A consumer's messages: what was pushed, until stop(). */
class FakeMessages implements AsyncIterable<FakeMessage> {
  stopped = false;
  private readonly queue: FakeMessage[] = [];
  private wake: (() => void) | undefined;

  push(seq: number, version: number): void {
    const headers: Record<string, string> = {
      [HEADER_VERSION]: String(version),
      [HEADER_PART]: '1/1',
      [HEADER_TERM]: '1',
    };
    this.queue.push({ seq, data: new Uint8Array([version]), headers: { get: (n) => headers[n] ?? '' } });
    this.wake?.();
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<FakeMessage> {
    for (;;) {
      const m = this.queue.shift();
      if (m) yield m;
      else if (this.stopped) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

interface Opening {
  resolve(m: FakeMessages): void;
}

/** A client whose consumer opens are answered by the test; the stream is empty. */
function scripted() {
  const opens: Opening[] = [];
  const conn = {
    nats: { DeliverPolicy: { StartSequence: 'by_start_sequence' } },
    js: {
      consumers: {
        get: () =>
          Promise.resolve({
            consume: () => new Promise<FakeMessages>((resolve) => opens.push({ resolve })),
          }),
      },
    },
    jsm: { streams: { info: () => Promise.resolve({ state: { first_seq: 0, last_seq: 0 } }) } },
  } as unknown as ClusterConnection;
  let version = 0;
  const db = {
    get stagedVersion() {
      return version;
    },
    settled: () => Promise.resolve(),
    applyReplicated: (record: Uint8Array) => {
      version = record[0];
      return Promise.resolve({ version, durable: Promise.resolve() });
    },
  } as unknown as Database;
  const failures: Error[] = [];
  const logs: string[] = [];
  const follower = new LogFollower(conn, db, {
    applied: () => undefined,
    failed: (e) => failures.push(e),
    log: (line) => logs.push(line),
  });
  return { follower, opens, failures, logs };
}

/** Polls `cond` (a generous deadline: this is about hangs, not speed). */
async function until(what: string, cond: () => boolean): Promise<void> {
  for (let i = 0; i < 2_000; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`never: ${what}`);
}

test('stop() returns while a consumer is still being opened, and stops it when it arrives', async () => {
  const { follower, opens } = scripted();
  await follower.start();
  await until('a consumer is being opened', () => opens.length === 1);
  await follower.stop();
  const late = new FakeMessages();
  opens[0].resolve(late);
  await until('the late consumer is stopped', () => late.stopped);
});

test('a consumer that arrives just after stop() is stopped, so stop() returns', async () => {
  const { follower, opens } = scripted();
  await follower.start();
  await until('a consumer is being opened', () => opens.length === 1);
  const stopping = follower.stop();
  const messages = new FakeMessages();
  opens[0].resolve(messages);
  await stopping;
  assert.equal(messages.stopped, true);
});

test('a consumer that never opens is given up when the log moves on, and a new one reads it', async () => {
  const { follower, opens, failures } = scripted();
  await follower.start();
  await until('a consumer is being opened', () => opens.length === 1);
  follower.watch(1, 0);
  follower.watch(1, 10_000);
  await until('a second consumer is being opened', () => opens.length === 2);
  const second = new FakeMessages();
  opens[1].resolve(second);
  second.push(1, 1);
  await until('the record is applied', () => follower.appliedSeq === 1);
  const late = new FakeMessages();
  opens[0].resolve(late);
  await until('the first consumer is stopped when it arrives', () => late.stopped);
  await follower.stop();
  assert.equal(second.stopped, true);
  assert.deepEqual(failures, []);
});

test('replacing a consumer that brings nothing waits longer each time, and briefly again after progress', async () => {
  const { follower, opens, logs } = scripted();
  await follower.start();
  await until('a consumer is being opened', () => opens.length === 1);
  follower.watch(1, 0);
  /** Replacements so far (each is logged as it is decided). */
  const replaced = () => logs.filter((l) => l.includes('stopped arriving')).length;
  const stall = async (notYet: number, at: number, lastSeq = 1) => {
    const before = replaced();
    follower.watch(lastSeq, notYet);
    assert.equal(replaced(), before, `no replacement at ${notYet}`);
    follower.watch(lastSeq, at);
    assert.equal(replaced(), before + 1, `a replacement at ${at}`);
    await until(`consumer ${before + 2} is being opened`, () => opens.length === before + 2);
  };
  await stall(2_999, 3_000);
  await stall(8_999, 9_000);
  await stall(20_999, 21_000);
  await stall(44_999, 45_000);
  await stall(68_999, 69_000);
  const messages = new FakeMessages();
  opens[5].resolve(messages);
  messages.push(1, 1);
  await until('the record is applied', () => follower.processedSeq === 1);
  follower.watch(2, 70_000);
  await stall(72_999, 73_000, 2);
  await follower.stop();
});
