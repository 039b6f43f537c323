import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldText, lineLogger, silentLogger } from '../../src/util/logger.js';

test('lineLogger: message, then fields; levels prefixed; children add fields; debug dropped', () => {
  const lines: string[] = [];
  const log = lineLogger((l) => lines.push(l));
  log.info('plain');
  log.warn({ n: 1, s: 'two words' }, 'careful');
  const child = log.child({ component: 'engine' });
  child.error({ err: 'boom' }, 'failed');
  child.debug('hidden');
  child.info({ skipped: undefined }, 'x');
  assert.deepEqual(lines, [
    'plain',
    'warning: careful n=1 s="two words"',
    'error: failed component=engine err=boom',
    'x component=engine',
  ]);
  silentLogger.child({ a: 1 }).error('nothing');
});

test('fieldText: bare words, quoted text, JSON for the rest', () => {
  assert.equal(fieldText('a', 'x'), 'a=x');
  assert.equal(fieldText('a', ''), 'a=""');
  assert.equal(fieldText('a', 'x=y'), 'a="x=y"');
  assert.equal(fieldText('a', 12n), 'a=12');
  assert.equal(fieldText('a', { b: [1] }), 'a={"b":[1]}');
});
