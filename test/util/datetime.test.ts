import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDatetime, parseDatetime } from '../../src/util/datetime.js';

test('formatDatetime prints UTC as YYYY-MM-DD HH:MM:SS', () => {
  assert.equal(formatDatetime(0), '1970-01-01 00:00:00');
  assert.equal(formatDatetime(1616042814), '2021-03-18 04:46:54');
});

test('parseDatetime accepts TigerGraph forms and rejects impossible dates', () => {
  assert.equal(parseDatetime('2021-03-18 04:46:54'), 1616042814);
  assert.equal(parseDatetime('2021/03/18 04:46:54'), 1616042814);
  assert.equal(parseDatetime('2021-03-18T04:46:54.000Z'), 1616042814);
  assert.equal(parseDatetime('2021-03-18'), 1616025600);
  assert.equal(parseDatetime('1616042814'), 1616042814);
  assert.equal(parseDatetime('2021-02-30 00:00:00'), undefined);
  assert.equal(parseDatetime('2021-13-01'), undefined);
  assert.equal(parseDatetime('yesterday'), undefined);
  assert.equal(parseDatetime('1500-01-01'), undefined);
});
