import assert from 'node:assert/strict';
import { test } from 'node:test';
import { attributeDefault, parseDefaultLiteral, zeroValue } from '../../src/catalog/defaults.js';
import { CatalogError } from '../../src/catalog/errors.js';
import type { AttrType } from '../../src/catalog/types.js';
import { Tuple } from '../../src/catalog/value.js';

const INT: AttrType = { kind: 'INT', bytes: 8 };
const UINT: AttrType = { kind: 'UINT', bytes: 8 };

test('DEFAULT literals become values of the attribute type, 64-bit integers exact', () => {
  assert.equal(parseDefaultLiteral(INT, '-42'), -42);
  assert.equal(parseDefaultLiteral(INT, '9223372036854775807'), 9223372036854775807n);
  assert.equal(parseDefaultLiteral(UINT, '18446744073709551615'), 18446744073709551615n);
  assert.equal(parseDefaultLiteral({ kind: 'DOUBLE' }, '-1.5e2'), -150);
  assert.equal(parseDefaultLiteral({ kind: 'FLOAT' }, '0.1'), Math.fround(0.1));
  assert.equal(parseDefaultLiteral({ kind: 'BOOL' }, 'TRUE'), true);
  assert.equal(parseDefaultLiteral({ kind: 'BOOL' }, '0'), false);
  assert.equal(parseDefaultLiteral({ kind: 'STRING', compress: false }, 'a b'), 'a b');
  assert.equal(
    parseDefaultLiteral({ kind: 'DATETIME' }, '2021-02-03 04:05:06'),
    Date.UTC(2021, 1, 3, 4, 5, 6) / 1000,
  );
});

test('DEFAULT literals that do not fit are rejected with the reason', () => {
  const cases: [AttrType, string, string][] = [
    [
      INT,
      '9223372036854775808',
      'default value "9223372036854775808" is not a valid INT (out of the 64-bit range).',
    ],
    [UINT, '-1', 'default value "-1" is not a valid UINT (UINT is 0 to 2^64-1).'],
    [INT, '1.5', 'default value "1.5" is not a valid INT.'],
    [{ kind: 'BOOL' }, 'yes', 'default value "yes" is not a valid BOOL (use true or false).'],
    [
      { kind: 'DATETIME' },
      '2021-02-30',
      'default value "2021-02-30" is not a valid DATETIME (expected "YYYY-MM-DD hh:mm:ss").',
    ],
    [{ kind: 'LIST', element: INT }, '1', 'a LIST<INT> attribute cannot have a DEFAULT value.'],
  ];
  for (const [type, text, message] of cases) {
    assert.throws(
      () => parseDefaultLiteral(type, text),
      (e: unknown) => e instanceof CatalogError && e.message === message,
    );
  }
});

test('attributes without DEFAULT get the zero value of their type', () => {
  const catalog = {
    tuples: [
      {
        name: 't',
        fields: [
          { name: 'a', type: INT },
          { name: 'b', type: { kind: 'STRING', compress: false } as AttrType },
        ],
      },
    ],
  };
  assert.deepEqual(zeroValue(catalog, { kind: 'UDT', name: 't' }), new Tuple('t', [0, '']));
  assert.deepEqual(zeroValue(catalog, { kind: 'MAP', key: INT, value: INT }), new Map());
  assert.deepEqual(zeroValue(catalog, { kind: 'SET', element: INT }), []);
  assert.deepEqual(zeroValue(catalog, { kind: 'FIXED_BINARY', length: 3 }), new Uint8Array(3));
  assert.equal(zeroValue(catalog, { kind: 'BOOL' }), false);
  assert.equal(attributeDefault(catalog, { name: 'x', type: INT, defaultLiteral: '7' }), 7);
  assert.equal(attributeDefault(catalog, { name: 'x', type: { kind: 'DATETIME' } }), 0);
});
