import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backupBytes, backupHeader, backupSize, parseBackup } from '../../src/engine/backup-file.js';
import { SNAPSHOT_FORMAT } from '../../src/engine/checkpoint-codec.js';

const chunks = [Buffer.from('first chunk '), new Uint8Array(0), Buffer.from('second')];
const header = backupHeader(42, chunks, new Date('2025-01-02T03:04:05Z'));
const file = Buffer.concat([...backupBytes(header, chunks)]);

test('a backup file holds its header and the snapshot, checked end to end', () => {
  assert.equal(file.length, backupSize(header));
  assert.deepEqual(
    { ...header, ocelotVersion: typeof header.ocelotVersion },
    {
      format: 1,
      ocelotVersion: 'string',
      createdAt: '2025-01-02T03:04:05.000Z',
      version: 42,
      snapshotFormat: SNAPSHOT_FORMAT,
      snapshotBytes: 18,
    },
  );
  const parsed = parseBackup(file);
  assert.deepEqual(parsed.header, header);
  assert.equal(parsed.snapshot.toString(), 'first chunk second');
});

test('damage of any kind is refused with the reason', () => {
  const why = (bytes: Buffer) => {
    try {
      parseBackup(bytes, 'f');
      return 'accepted';
    } catch (e) {
      return (e as Error).message;
    }
  };
  const flipped = Buffer.from(file);
  flipped[file.indexOf('second')] ^= 1;
  assert.equal(why(flipped), 'f is not a usable Ocelot backup: its checksum does not match (damaged).');
  assert.match(why(file.subarray(0, file.length - 3)), /cut short or extended/);
  assert.match(why(Buffer.concat([file, Buffer.from('x')])), /cut short or extended/);
  assert.match(why(Buffer.from('OCELBKUP')), /does not start with an Ocelot backup header/);
  const future = Buffer.concat([...backupBytes({ ...header, format: 2 }, chunks)]);
  assert.equal(why(future), 'f is not a usable Ocelot backup: it has format 2; this build reads format 1.');
  const noEnd = Buffer.from(file);
  noEnd.write('XXXXXXXX', file.length - 8, 'latin1');
  assert.match(why(noEnd), /end marker is missing/);
});
