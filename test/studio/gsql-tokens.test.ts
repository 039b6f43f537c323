import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readToken, tokenizeGsql, type LexState } from '../../studio/src/model/gsql-tokens.js';

const kinds = (text: string) => tokenizeGsql(text).map((t) => [t.kind, t.text]);

test('classifies keywords, types, accumulators, functions, identifiers and variables', () => {
  assert.deepEqual(kinds('CREATE QUERY q(VERTEX<person> p) { SumAccum<INT> @@n; PRINT outdegree(p); }'), [
    ['keyword', 'CREATE'],
    ['keyword', 'QUERY'],
    ['identifier', 'q'],
    ['punctuation', '('],
    ['type', 'VERTEX'],
    ['operator', '<'],
    ['identifier', 'person'],
    ['operator', '>'],
    ['identifier', 'p'],
    ['punctuation', ')'],
    ['punctuation', '{'],
    ['accumulator', 'SumAccum'],
    ['operator', '<'],
    ['type', 'INT'],
    ['operator', '>'],
    ['variable', '@@n'],
    ['punctuation', ';'],
    ['keyword', 'PRINT'],
    ['function', 'outdegree'],
    ['punctuation', '('],
    ['identifier', 'p'],
    ['punctuation', ')'],
    ['punctuation', ';'],
    ['punctuation', '}'],
  ]);
});

test('keywords are case-insensitive; strings, numbers, comments and operators', () => {
  assert.deepEqual(kinds('select s from S:s where s.age >= 1.5e3 and s.name == "a \\"b\\"" // done'), [
    ['keyword', 'select'],
    ['identifier', 's'],
    ['keyword', 'from'],
    ['identifier', 'S'],
    ['punctuation', ':'],
    ['identifier', 's'],
    ['keyword', 'where'],
    ['identifier', 's'],
    ['operator', '.'],
    ['identifier', 'age'],
    ['operator', '>='],
    ['number', '1.5e3'],
    ['keyword', 'and'],
    ['identifier', 's'],
    ['operator', '.'],
    ['identifier', 'name'],
    ['operator', '=='],
    ['string', '"a \\"b\\""'],
    ['comment', '// done'],
  ]);
  assert.deepEqual(kinds('x += 2 # note'), [
    ['identifier', 'x'],
    ['operator', '+='],
    ['number', '2'],
    ['comment', '# note'],
  ]);
});

test('a block comment spans lines through the line state', () => {
  const state: LexState = { inBlockComment: false };
  const first = '/* one';
  assert.deepEqual(readToken(first, 0, state), { kind: 'comment', end: first.length });
  assert.equal(state.inBlockComment, true);
  const second = 'two */ PRINT';
  assert.deepEqual(readToken(second, 0, state), { kind: 'comment', end: 6 });
  assert.equal(state.inBlockComment, false);
  assert.deepEqual(readToken(second, 7, state), { kind: 'keyword', end: 12 });
  assert.deepEqual(kinds('a /* b */ c'), [
    ['identifier', 'a'],
    ['comment', '/* b */'],
    ['identifier', 'c'],
  ]);
});

test('loading-job columns, positions, unterminated strings and stray characters', () => {
  assert.deepEqual(kinds('VALUES ($0, $"name", $x)'), [
    ['keyword', 'VALUES'],
    ['punctuation', '('],
    ['variable', '$0'],
    ['punctuation', ','],
    ['variable', '$"name"'],
    ['punctuation', ','],
    ['variable', '$x'],
    ['punctuation', ')'],
  ]);
  assert.deepEqual(kinds('"open\n?'), [
    ['string', '"open'],
    ['invalid', '?'],
  ]);
  const [, second] = tokenizeGsql('a\n  bb');
  assert.deepEqual(
    { line: second.line, column: second.column, start: second.start },
    { line: 2, column: 3, start: 4 },
  );
});

test('every character of any text belongs to exactly one token', () => {
  const samples = ['', '@', '$', '1.', '1e', '/*', '*/', '"\\', 'a.b..c', '-(e:e)->', 'é€'];
  for (const line of samples) {
    const state: LexState = { inBlockComment: false };
    let pos = 0;
    while (pos < line.length) {
      const t = readToken(line, pos, state);
      assert.ok(t.end > pos, `progress at ${pos} in ${JSON.stringify(line)}`);
      pos = t.end;
    }
    assert.equal(pos, line.length);
  }
});
