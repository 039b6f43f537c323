import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GsqlSyntaxError, tokenize } from '../../src/gsql/lexer.js';

const kinds = (src: string): string[] => tokenize(src).map((t) => `${t.kind}:${t.text}`);

test('words, numbers, strings and operators carry line and column', () => {
  const toks = tokenize('CREATE VERTEX p (x INT DEFAULT -1.5e3)\n  SET a = "q\\"uote"');
  assert.deepEqual(
    toks.map((t) => [t.kind, t.text, t.line, t.column]),
    [
      ['ident', 'CREATE', 1, 1],
      ['ident', 'VERTEX', 1, 8],
      ['ident', 'p', 1, 15],
      ['punct', '(', 1, 17],
      ['ident', 'x', 1, 18],
      ['ident', 'INT', 1, 20],
      ['ident', 'DEFAULT', 1, 24],
      ['punct', '-', 1, 32],
      ['number', '1.5e3', 1, 33],
      ['punct', ')', 1, 38],
      ['newline', '\n', 1, 39],
      ['ident', 'SET', 2, 3],
      ['ident', 'a', 2, 7],
      ['punct', '=', 2, 9],
      ['string', 'q"uote', 2, 11],
      ['eof', '', 2, 20],
    ],
  );
});

test('all three comment styles are skipped, newlines inside block comments still count lines', () => {
  const toks = tokenize('a # one\nb // two\n/* three\nlines */ c');
  assert.deepEqual(
    toks.filter((t) => t.kind === 'ident').map((t) => [t.text, t.line, t.column]),
    [
      ['a', 1, 1],
      ['b', 2, 1],
      ['c', 4, 10],
    ],
  );
});

test('nested type brackets close one at a time and ranges are not fractions', () => {
  assert.deepEqual(kinds('SET<VERTEX<v>>'), [
    'ident:SET',
    'punct:<',
    'ident:VERTEX',
    'punct:<',
    'ident:v',
    'punct:>',
    'punct:>',
    'eof:',
  ]);
  assert.deepEqual(kinds('*1..3'), ['punct:*', 'number:1', 'punct:..', 'number:3', 'eof:']);
});

test('BEGIN and END alone on their lines make a block without newline tokens', () => {
  assert.deepEqual(kinds('BEGIN\nCREATE x {\nEND;\n}\nend\nls'), [
    'block_begin:BEGIN',
    'ident:CREATE',
    'ident:x',
    'punct:{',
    'ident:END',
    'punct:;',
    'punct:}',
    'block_end:end',
    'newline:\n',
    'ident:ls',
    'eof:',
  ]);
  // BEGIN with something after it on the line is an ordinary word.
  assert.deepEqual(kinds('BEGIN x'), ['ident:BEGIN', 'ident:x', 'eof:']);
});

test('lexical errors name line and column', () => {
  assert.throws(
    () => tokenize('ls\n  "open'),
    (e: unknown) =>
      e instanceof GsqlSyntaxError && e.line === 2 && e.column === 3 && /unterminated string/.test(e.message),
  );
  assert.throws(
    () => tokenize('a\n/* never closed'),
    (e: unknown) => e instanceof GsqlSyntaxError && e.line === 2 && e.column === 1,
  );
  assert.throws(
    () => tokenize('x ` y'),
    (e: unknown) =>
      e instanceof GsqlSyntaxError &&
      e.message === 'Syntax Error: line 1, column 3: unexpected character "`"',
  );
});

test('a byte-order mark and Windows line ends are blanks', () => {
  assert.deepEqual(kinds('\uFEFFls\r\nhelp\r\n'), [
    'ident:ls',
    'newline:\n',
    'ident:help',
    'newline:\n',
    'eof:',
  ]);
});

test('a quote right after an accumulator name is the previous-value mark, not a string', () => {
  assert.deepEqual(kinds("s.@x' - @@y' + 'z'"), [
    'ident:s',
    'punct:.',
    'punct:@',
    'ident:x',
    "punct:'",
    'punct:-',
    'punct:@@',
    'ident:y',
    "punct:'",
    'punct:+',
    'string:z',
    'eof:',
  ]);
});
