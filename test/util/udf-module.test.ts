/**
 * Ocelot's UDF module format: loading checks, the module's isolation, and calls across the
 * boundary (bigints and maps tagged on the wire).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadUdfModule, UdfError } from '../../src/util/udf-module.js';

const MODULE = `
// helpers stay private
const sep = ';';
export const join_ints = { params: ['LIST<INT>'], returns: 'STRING', fn: (xs) => xs.join(sep) };
export const parse_pairs = {
  params: ['STRING'],
  returns: 'MapAccum<INT, INT>',
  fn: (s) => new Map(s.split(sep).map((p) => p.split(',').map(BigInt))),
};
export const half = { params: ['INT'], returns: 'DOUBLE', fn: (x) => Number(x) / 2 };
export const big = { params: [], returns: 'INT', fn: () => 2n ** 62n };
export const globals = { params: [], returns: 'STRING', fn: () => [typeof process, typeof require, typeof fetch, typeof setTimeout].join() };
export const spin = { params: [], returns: 'BOOL', fn: () => { for (;;); } };
`;

test('a module loads with its typed exports; private helpers stay private', () => {
  const m = loadUdfModule(MODULE);
  assert.deepEqual(
    m.exports.map((x) => [x.name, x.params, x.returns]),
    [
      ['join_ints', ['LIST<INT>'], 'STRING'],
      ['parse_pairs', ['STRING'], 'MapAccum<INT, INT>'],
      ['half', ['INT'], 'DOUBLE'],
      ['big', [], 'INT'],
      ['globals', [], 'STRING'],
      ['spin', [], 'BOOL'],
    ],
  );
  assert.equal(m.call('join_ints', [[1, 2n, 3]]), '1;2;3');
  assert.deepEqual(
    m.call('parse_pairs', ['1,2;3,4']),
    new Map([
      [1n, 2n],
      [3n, 4n],
    ]),
  );
});

test('the module runs without the server realm: no process, require, network or timers', () => {
  assert.equal(loadUdfModule(MODULE).call('globals', []), 'undefined,undefined,undefined,undefined');
});

test('a call that runs too long is stopped with an error', () => {
  assert.throws(
    () => loadUdfModule(MODULE).call('spin', []),
    (e: unknown) => e instanceof UdfError && /spin\(\) failed/.test((e as Error).message),
  );
});

test('modules that are refused: imports, untyped exports, default exports, code that fails', () => {
  const refused = (text: string, why: RegExp): void =>
    assert.throws(
      () => loadUdfModule(text),
      (e: unknown) => e instanceof UdfError && why.test((e as Error).message),
    );
  refused(
    `import fs from 'node:fs';\nexport const f = { params: [], returns: 'INT', fn: () => 1 };`,
    /line 1: a UDF module cannot import other modules/,
  );
  refused(`export function f() { return 1; }`, /the export f must be \{ params/);
  refused(`export default 1;`, /write each export as/);
  refused(`const x = 1;`, /exports no function/);
  refused(
    `throw new Error('boom');\nexport const f = { params: [], returns: 'INT', fn: () => 1 };`,
    /failed to load: boom/,
  );
  refused(`export const f = { params: [], returns: 'INT', fn: () => eval('1') };\nf.fn();`, /failed to load/);
});
