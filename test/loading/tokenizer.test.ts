import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CsvTokenizer } from '../../src/loading/tokenizer.js';
import { decodeSpecial, formatFromOptions, type FileFormat } from '../../src/loading/format.js';

function lines(
  format: FileFormat,
  chunks: Buffer[],
  maxLineBytes?: number,
): { rows: string[][]; oversize: number[] } {
  const rows: string[][] = [];
  const oversize: number[] = [];
  const t = new CsvTokenizer(
    format,
    (l) => rows.push(l.tokens()),
    (n) => oversize.push(n),
    maxLineBytes === undefined ? undefined : { maxLineBytes },
  );
  for (const c of chunks) t.push(c);
  t.finish();
  return { rows, oversize };
}

const fmt = (opts: Record<string, string> = {}): FileFormat =>
  formatFromOptions(new Map(Object.entries(opts)));

test('splits lines and tokens; last line without EOL; empty lines skipped; empty tokens kept', () => {
  const { rows } = lines(fmt(), [Buffer.from('a,b,c\n\n1,,3\nx')]);
  assert.deepEqual(rows, [['a', 'b', 'c'], ['1', '', '3'], ['x']]);
});

test('double quotes protect separators and EOL; doubled quotes stand for one', () => {
  const { rows } = lines(fmt({ QUOTE: 'double' }), [Buffer.from('"a,b","say ""hi""",c\n"multi\nline",2\n')]);
  assert.deepEqual(rows, [
    ['a,b', 'say "hi"', 'c'],
    ['multi\nline', '2'],
  ]);
});

test('single quotes, a tab separator, CRLF ends of line and a multi-byte separator', () => {
  assert.deepEqual(
    lines(fmt({ QUOTE: 'single', SEPARATOR: '\\t', EOL: '\\r\\n' }), [Buffer.from("'a\tb'\tc\r\nd\te\r\n")])
      .rows,
    [
      ['a\tb', 'c'],
      ['d', 'e'],
    ],
  );
  assert.deepEqual(lines(fmt({ SEPARATOR: '|#|' }), [Buffer.from('a|#|b|c|#|d\n')]).rows, [
    ['a', 'b|c', 'd'],
  ]);
  assert.deepEqual(lines(fmt({ SEPARATOR: '\\u001d' }), [Buffer.from('a\u001db\n')]).rows, [['a', 'b']]);
  // Without QUOTE a quote is an ordinary character.
  assert.deepEqual(lines(fmt(), [Buffer.from('"a,b"\n')]).rows, [['"a', 'b"']]);
});

test('a line longer than the limit is reported and skipped, the next line still loads', () => {
  const big = 'x'.repeat(100);
  const { rows, oversize } = lines(
    fmt(),
    [Buffer.from(`ok,1\n${big.slice(0, 50)}`), Buffer.from(`${big.slice(50)},2\nnext,3\n`)],
    40,
  );
  assert.deepEqual(rows, [
    ['ok', '1'],
    ['next', '3'],
  ]);
  assert.deepEqual(oversize, [2]);
});

test('smallInt reads integers straight from the bytes', () => {
  const seen: (number | undefined)[] = [];
  const t = new CsvTokenizer(fmt(), (l) => {
    for (let i = 0; i < l.count; i++) seen.push(l.smallInt(i));
  });
  t.push(Buffer.from('12,-7,0,1.5,,9007199254740993,abc\n'));
  t.finish();
  assert.deepEqual(seen, [12, -7, 0, undefined, undefined, undefined, undefined]);
});

test('decodeSpecial rejects an empty separator and a three-character EOL', () => {
  assert.throws(() => decodeSpecial('', 'SEPARATOR'), /SEPARATOR must not be empty/);
  assert.throws(() => decodeSpecial('abc', 'EOL'), /EOL "abc" must be one or two characters/);
  assert.deepEqual([...decodeSpecial('\\r\\n', 'EOL')], [13, 10]);
});

test('property: any split of the input into chunks yields the same rows', () => {
  const cell = fc.stringMatching(/^[a-z0-9 ",\n|é]{0,6}$/);
  const row = fc.array(cell, { minLength: 1, maxLength: 4 });
  fc.assert(
    fc.property(
      fc.array(row, { minLength: 1, maxLength: 8 }),
      fc.constantFrom('double', 'none'),
      fc.array(fc.nat(200), { maxLength: 6 }),
      (table, quote, cuts) => {
        const format = quote === 'double' ? fmt({ QUOTE: 'double' }) : fmt({ SEPARATOR: '|' });
        const enc = (c: string): string =>
          quote === 'double' ? `"${c.replaceAll('"', '""')}"` : c.replace(/[|\n]/g, '');
        const text = table.map((r) => r.map(enc).join(quote === 'double' ? ',' : '|')).join('\n') + '\n';
        const bytes = Buffer.from(text);
        const whole = lines(format, [bytes]).rows;
        const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const chunks: Buffer[] = [];
        let at = 0;
        for (const p of points) {
          chunks.push(bytes.subarray(at, p));
          at = p;
        }
        chunks.push(bytes.subarray(at));
        assert.deepEqual(lines(format, chunks).rows, whole);
        if (quote === 'double') {
          // Quoted cells round-trip exactly (rows made of one empty cell are empty lines only when unquoted).
          assert.deepEqual(whole, table);
        }
      },
    ),
    { numRuns: 300 },
  );
});
