/**
 * Fuzzing of GSQL text (runScript over a fresh Database, and the shell transport) and of loading data (POST /ddl with CSV and
 * JSON lines, separators and end-of-line options). GSQL: the executor always answers with an exit
 * code and text, never throws, never hangs, never prints a stack frame, and a failing single
 * statement changes nothing. Loading: the clean-envelope property of fuzz-helpers.ts.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { parseScript } from '../../src/gsql/parser.js';
import { runScript } from '../../src/shell/run-script.js';
import { soakScale } from './scale.js';
import {
  assertFuzz,
  mutate,
  mutation,
  checkedRequest,
  FUZZ_MS,
  LEAK,
  startFuzzServer,
  type FuzzServer,
} from './fuzz-helpers.js';
import { scaled } from '../timing.js';

let fz: FuzzServer;
before(async () => {
  fz = await startFuzzServer();
});
after(async () => {
  await fz.close();
});

const opts = { numRuns: 5000 * soakScale(), interruptAfterTimeLimit: FUZZ_MS, includeErrorInReport: true };

/** Statements of the shapes the shell runs, over the fuzz schema. */
const TEMPLATES = [
  'CREATE VERTEX T1 (PRIMARY_ID id STRING, a INT, b LIST<DOUBLE>) WITH primary_id_as_attribute="true"',
  'CREATE DIRECTED EDGE E1 (FROM Item, TO Num | FROM Num, TO Item, since DATETIME, DISCRIMINATOR(since))',
  'CREATE GRAPH H (Item, Num)',
  'USE GRAPH G',
  'ls',
  'SHOW VERTEX Item',
  'INTERPRET QUERY () FOR GRAPH G { S = {Item.*}; S = SELECT s FROM S:s WHERE s.req > 3 ORDER BY s.k DESC LIMIT 2; PRINT S; }',
  'INTERPRET QUERY (INT x = 3) FOR GRAPH G { SumAccum<INT> @@s; S = {Item.*}; S = SELECT s FROM S:s -(Link>:e)- Item:t ACCUM @@s += e.req * x; PRINT @@s; }',
  'INTERPRET QUERY () FOR GRAPH G { MapAccum<STRING, ListAccum<INT>> @@m; FOREACH i IN RANGE[1, 3] DO @@m += ("a" -> i); END; PRINT @@m; }',
  'CREATE QUERY fq(VERTEX<Item> v, SET<STRING> s) FOR GRAPH G { S = {v}; WHILE S.size() > 0 LIMIT 3 DO S = SELECT t FROM S:s -(:e)- :t; END; PRINT S; }',
  'CREATE LOADING JOB lj FOR GRAPH G { DEFINE FILENAME f = "/nonexistent"; LOAD f TO VERTEX Num VALUES ($0, gsql_to_uint($1)) WHERE $1 > 0 USING HEADER="true"; }',
  'CREATE GLOBAL SCHEMA_CHANGE JOB sc { ADD VERTEX T2 (PRIMARY_ID id INT); ALTER VERTEX Num ADD ATTRIBUTE (z STRING DEFAULT "q"); }',
  'CREATE USER',
  'CREATE SECRET s1',
  'SHOW USER',
  'GRANT ROLE designer ON GRAPH G TO tigergraph',
  'SET exit_on_error = "FALSE"',
  'RUN QUERY nope(1, "x")',
  'DROP QUERY fq',
];
const VOCAB = [
  'CREATE',
  'VERTEX',
  'EDGE',
  'GRAPH',
  'QUERY',
  'SELECT',
  'FROM',
  'WHERE',
  'ACCUM',
  'POST-ACCUM',
  'PRINT',
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  '<',
  '>',
  ',',
  ';',
  ':',
  '=',
  '==',
  '+=',
  '->',
  '.',
  '"',
  "'",
  '@@',
  '@',
  '$',
  '*',
  '-',
  '/',
  '%',
  'Item',
  'Num',
  'Link',
  'INT',
  'UINT',
  'STRING',
  'DATETIME',
  'LIST<INT>',
  'MAP<INT,',
  'TYPEDEF',
  'TUPLE',
  'DISCRIMINATOR',
  'INSERT',
  'INTO',
  'VALUES',
  'DELETE',
  'UPDATE',
  'SET',
  'LIMIT',
  'ORDER',
  'BY',
  'IF',
  'THEN',
  'ELSE',
  'END',
  'WHILE',
  'FOREACH',
  'IN',
  'RANGE',
  'TO_CSV',
  '9223372036854775808',
  '-0',
  '1e308',
  '0x',
  '/*',
  '*/',
  '//',
  '#',
  '\\',
  '\u0000',
  '\ufeff',
  '\u00a0',
  'é',
  '🐈',
];

const gsqlText = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.constantFrom(...TEMPLATES), fc.array(mutation(VOCAB), { minLength: 1, maxLength: 4 }))
      .map(([t, m]) => mutate(t, m)),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 80 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 80 }) },
);

function withDeadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hang: ${what}`)), ms);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

test('GSQL text: an exit code and clean text, no throw, no hang, a failing statement changes nothing', async () => {
  const db = fz.servers.db;
  await assertFuzz(
    'GSQL text',
    fc.asyncProperty(gsqlText, async (text) => {
      // Statements before a failing one run, as in the shell; the rule is about one statement.
      const single = parseScript(text).length === 1;
      const before = db.version;
      const catalogBefore = db.catalog;
      let out = '';
      const code = await withDeadline(
        runScript(db, text, { user: 'tigergraph', graph: 'G' }, (t) => (out += t)),
        scaled(30_000),
        JSON.stringify(text),
      );
      assert.ok(Number.isInteger(code) && code >= 0 && code < 256, `exit code ${code}`);
      assert.doesNotMatch(out, LEAK, `stack frame or path in: ${out.slice(0, 400)}`);
      assert.doesNotMatch(
        out,
        /Internal error|TypeError|RangeError|undefined is not|Cannot read prop/,
        out.slice(0, 400),
      );
      if (single && code !== 0) {
        assert.equal(db.version, before, `a failing statement changed the data: ${text}`);
        assert.equal(db.catalog, catalogBefore, `a failing statement changed the catalog: ${text}`);
      }
    }),
    opts,
  );
});

test('GSQL text through the 3.x shell transport: a return code, never 255 (executor crash), no stack', async () => {
  const basic = `Basic ${Buffer.from('tigergraph:tigergraph').toString('base64')}`;
  await assertFuzz(
    'GSQL over HTTP',
    fc.asyncProperty(gsqlText, async (text) => {
      const res = await fetch(`${fz.servers.urls.gsql}/gsqlserver/gsql/file`, {
        method: 'POST',
        headers: { authorization: basic, 'GSQL-Cookie': JSON.stringify({ graph: 'G' }) },
        body: encodeURIComponent(text),
        signal: AbortSignal.timeout(10_000),
      });
      const out = await res.text();
      assert.ok(res.status < 500, `${res.status}: ${out.slice(0, 300)}`);
      assert.doesNotMatch(out, LEAK, out.slice(0, 400));
      const code = /__GSQL__RETURN__CODE__,(\d+)\n$/.exec(out);
      assert.ok(code, `no return code line: ${out.slice(-300)}`);
      assert.notEqual(code[1], '255', `the executor failed: ${out.slice(0, 400)}`);
    }),
    opts,
  );
});

const cell = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom(
    '',
    '"',
    '""',
    '"a,b"',
    '"unterminated',
    'true',
    'FALSE',
    '2024-02-30 25:61:00',
    '1970-01-01',
    '-9223372036854775809',
    '18446744073709551616',
    '\r',
    '\t',
    '\\',
    'é',
    '\ufffd',
  ),
);
const csvLine = fc.array(cell, { maxLength: 10 }).map((cells) => cells.join(','));
const csvBody = fc.oneof(
  fc.array(csvLine, { maxLength: 20 }).map((lines) => new TextEncoder().encode(lines.join('\n'))),
  fc.uint8Array({ maxLength: 400 }),
);
const jsonLine = fc.oneof(
  fc
    .record(
      {
        id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
        v: fc.oneof(fc.integer(), fc.string(), fc.double(), fc.jsonValue()),
      },
      { requiredKeys: [] },
    )
    .map((o) => JSON.stringify(o)),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 40 }),
);
const jsonBody = fc.array(jsonLine, { maxLength: 15 }).map((l) => new TextEncoder().encode(l.join('\n')));
const ddlParams = fc.array(
  fc.constantFrom(
    'sep=%7C',
    'sep=',
    'sep=%2C%2C',
    'eol=%0D%0A',
    'eol=',
    'eol=x',
    'ack=none',
    'ack=bogus',
    'timeout=1',
    'timeout=-1',
    'concise=true',
    'concise=maybe',
    'filename=g',
    'tag=nope',
  ),
  { maxLength: 3 },
);

test('POST /ddl: CSV and JSON lines of any shape give clean answers; errors change nothing', async () => {
  const target = fc.oneof(
    fc.tuple(fc.constant('load_csv'), csvBody),
    fc.tuple(fc.constant('load_json'), jsonBody),
    fc.tuple(fc.constant('load_json'), csvBody),
  );
  await assertFuzz(
    'POST /ddl',
    fc.asyncProperty(target, ddlParams, async ([tag, body], params) => {
      const qs = [`tag=${tag}`, 'filename=f', ...params].join('&');
      await checkedRequest(fz, `${fz.restpp}/ddl/G?${qs}`, { method: 'POST', body });
    }),
    opts,
  );
  assert.equal((await fetch(`${fz.restpp}/echo`)).status, 200);
});
