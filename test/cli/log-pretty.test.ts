import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prettyDestination, prettyLine } from '../../src/cli/log-pretty.js';

const at = (iso: string) => {
  const d = new Date(iso);
  return `${d.toTimeString().slice(0, 8)}.${String(d.getMilliseconds()).padStart(3, '0')}`;
};

test('an access line reads method, url, status and time; other fields follow as key=value', () => {
  const time = '2025-03-04T05:06:07.089Z';
  const line = JSON.stringify({
    level: 'info',
    time,
    pid: 7,
    listener: 'restpp',
    reqId: '1.RESTPP_1_1.1.N',
    method: 'GET',
    url: '/echo',
    status: 200,
    responseTime: 1.25,
    msg: 'request',
  });
  assert.equal(
    prettyLine(line, false),
    `${at(time)} INFO  [restpp] GET /echo 200 1.25 ms reqId=1.RESTPP_1_1.1.N`,
  );
  assert.equal(
    prettyLine(line, true),
    `\x1b[2m${at(time)}\x1b[0m \x1b[32mINFO \x1b[0m \x1b[2m[restpp]\x1b[0m GET /echo 200 1.25 ms reqId=1.RESTPP_1_1.1.N`,
  );
});

test('other lines: component, message, fields; text that is not JSON passes through', () => {
  const time = '2025-03-04T05:06:07.000Z';
  assert.equal(
    prettyLine(JSON.stringify({ level: 'warn', time, component: 'engine', msg: 'slow', ms: 12 }), false),
    `${at(time)} WARN  [engine] slow ms=12`,
  );
  assert.equal(prettyLine('not json', false), 'not json');
  const out: string[] = [];
  prettyDestination((t) => out.push(t), false).write(
    `${JSON.stringify({ level: 'error', time, msg: 'a' })}\n`,
  );
  assert.deepEqual(out, [`${at(time)} ERROR a\n`]);
});
