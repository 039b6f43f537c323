/** Whatever the input, parsing ends with statements and syntax errors — never an exception or a hang. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseScript } from '../../src/gsql/parser.js';

const WORDS = [
  'CREATE',
  'VERTEX',
  'DIRECTED',
  'UNDIRECTED',
  'EDGE',
  'GRAPH',
  'GLOBAL',
  'SCHEMA_CHANGE',
  'JOB',
  'RUN',
  'DROP',
  'ALTER',
  'ADD',
  'ATTRIBUTE',
  'INDEX',
  'ON',
  'PRIMARY_ID',
  'PRIMARY',
  'KEY',
  'FROM',
  'TO',
  'WITH',
  'DEFAULT',
  'TYPEDEF',
  'TUPLE',
  'USE',
  'SHOW',
  'SET',
  'ls',
  'help',
  'BEGIN',
  'END',
  'QUERY',
  'UPSERT',
  'INT',
  'STRING',
  'LIST',
  'MAP',
  'DISCRIMINATOR',
  'REVERSE_EDGE',
  'v',
  'e',
  'g',
  '*',
  '(',
  ')',
  '{',
  '}',
  '<',
  '>',
  ',',
  ';',
  '|',
  '=',
  '"s"',
  '12',
  '-',
  '\n',
  ' ',
  '#c\n',
  '/*x*/',
];

test('random token soup never throws out of parseScript', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...WORDS), { maxLength: 60 }), (parts) => {
      const items = parseScript(parts.join(' '));
      assert.ok(Array.isArray(items));
      for (const i of items) {
        if (!i.ok) assert.match(i.error.message, /^Syntax Error: line \d+, column \d+: /);
      }
    }),
    { numRuns: 400 },
  );
});

test('arbitrary text never throws out of parseScript', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 200 }), (text) => {
      assert.ok(Array.isArray(parseScript(text)));
    }),
    { numRuns: 400 },
  );
});
