import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  findStartSeq,
  readPartMeta,
  Reassembler,
  splitRecord,
  type PartMeta,
} from '../../src/cluster/log-format.js';

const meta = (version: number, part: number, parts: number, term = 1): PartMeta => ({
  version,
  part,
  parts,
  term,
});

test('a large record is split into parts that fit a message and put back together', () => {
  const record = new Uint8Array(10_000).map((_, i) => i % 251);
  const parts = splitRecord(record, 4096 + 3000);
  assert.deepEqual(
    parts.map((p) => p.length),
    [3000, 3000, 3000, 1000],
  );
  const r = new Reassembler();
  for (let i = 0; i < parts.length - 1; i++)
    assert.equal(r.push(meta(7, i + 1, parts.length), parts[i]), undefined);
  const whole = r.push(meta(7, parts.length, parts.length), parts[parts.length - 1]);
  assert.equal(whole?.version, 7);
  assert.deepEqual(whole?.record, record);
  assert.deepEqual(splitRecord(new Uint8Array(5), 1 << 20).length, 1);
});

test('an incomplete record of a deposed leader is dropped when the next term starts the version again', () => {
  const r = new Reassembler();
  const a = new Uint8Array([1]);
  const b = new Uint8Array([2]);
  assert.equal(r.push(meta(5, 1, 2, 10), a), undefined);
  assert.ok(r.pending);
  // The new leader (term 12) publishes version 5 whole.
  assert.deepEqual(r.push(meta(5, 1, 1, 12), b), { version: 5, record: b });
  // A stray second part of the old term changes nothing.
  assert.equal(r.push(meta(5, 2, 2, 10), a), undefined);
  assert.equal(r.pending, false);
});

test('part headers are checked', () => {
  const h = (v: Record<string, string>) => (name: string) => v[name] ?? '';
  assert.deepEqual(
    readPartMeta(h({ 'Ocelot-Version': '3', 'Ocelot-Part': '1/2', 'Ocelot-Term': '9' })),
    meta(3, 1, 2, 9),
  );
  const bads: Record<string, string>[] = [
    {},
    { 'Ocelot-Version': '0', 'Ocelot-Part': '1/1', 'Ocelot-Term': '1' },
    { 'Ocelot-Version': '2', 'Ocelot-Part': '3/2', 'Ocelot-Term': '1' },
    { 'Ocelot-Version': 'x', 'Ocelot-Part': '1/1', 'Ocelot-Term': '1' },
  ];
  for (const bad of bads) {
    assert.throws(() => readPartMeta(h(bad)), /valid Ocelot-Version/);
  }
});

test('findStartSeq finds the first message past a version, whatever the parts and abandoned records', async () => {
  // A stream as versions per sequence (1-based): runs of parts, repeated versions where a record
  // was abandoned and published again.
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.record({ parts: fc.integer({ min: 1, max: 3 }), abandoned: fc.boolean() }), {
        maxLength: 30,
      }),
      fc.integer({ min: 0, max: 40 }),
      fc.integer({ min: 1, max: 5 }),
      async (records, version, firstSeq) => {
        const stream: number[] = [];
        records.forEach((r, i) => {
          if (r.abandoned) stream.push(i + 1);
          for (let p = 0; p < r.parts; p++) stream.push(i + 1);
        });
        const first = Math.min(firstSeq, stream.length + 1);
        const lastSeq = stream.length;
        let expected = lastSeq + 1;
        for (let s = first; s <= lastSeq; s++) {
          if (stream[s - 1] > version) {
            expected = s;
            break;
          }
        }
        const probes: number[] = [];
        const got = await findStartSeq(version, first, lastSeq, async (s) => {
          assert.ok(s >= first && s <= lastSeq, `probe ${s} outside [${first}, ${lastSeq}]`);
          probes.push(s);
          return stream[s - 1];
        });
        assert.equal(got, Math.max(expected, first));
        assert.ok(probes.length <= 2 + Math.ceil(Math.log2(lastSeq + 2)) + 1);
      },
    ),
    { numRuns: 300 },
  );
});

test('findStartSeq needs one or two reads when each record was one message', async () => {
  const reads: number[] = [];
  const start = await findStartSeq(41, 1, 100, async (s) => {
    reads.push(s);
    return s;
  });
  assert.equal(start, 42);
  assert.deepEqual(reads, [42, 41]);
});
