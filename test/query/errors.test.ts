import assert from 'node:assert/strict';
import { test } from 'node:test';
import { socialNet } from '../fixtures/query/social-net.js';
import { compileErrorOf, runText, v } from '../fixtures/query/run.js';

const q = (body: string, syntax = ''): string =>
  `CREATE QUERY t(VERTEX<person> p) FOR GRAPH socialNet ${syntax}{\n${body}\n}`;
const err = (line: number, col: number, detail: string): string =>
  `Semantic Check Error in query t: line ${line}, col ${col}\n${detail}`;

const cases: [string, string, string][] = [
  [
    'an empty () compared with a number',
    `WHILE () > 0 LIMIT 3 DO PRINT 1; END;`,
    err(2, 10, 'cannot compare BAG<NULL> with INT'),
  ],
  ['unknown variable', `PRINT x;`, err(2, 7, '"x" is not defined')],
  [
    'undeclared global accumulator',
    `@@nope += 1;`,
    err(2, 1, 'the global accumulator @@nope is not declared'),
  ],
  [
    'undeclared vertex accumulator',
    `S = {p};\nS = SELECT s FROM S:s ACCUM s.@cnt += 1;`,
    err(3, 29, 'the vertex-attached accumulator @cnt is not declared'),
  ],
  [
    'global accumulator assigned with = in ACCUM',
    `SumAccum<INT> @@n;\nS = {p};\nS = SELECT s FROM S:s ACCUM @@n = 1;`,
    err(4, 29, 'the global accumulator @@n cannot be assigned with "=" in an ACCUM clause; use "+="'),
  ],
  [
    'vertex attribute assigned in ACCUM',
    `S = {p};\nS = SELECT s FROM S:s ACCUM s.gender = "x";`,
    err(3, 29, 'vertex attribute "gender" cannot be assigned in an ACCUM clause; use POST-ACCUM'),
  ],
  [
    'unknown attribute',
    `S = {p};\nS = SELECT s FROM S:s WHERE s.age > 3;`,
    err(3, 31, '"age" is not an attribute of vertex type person'),
  ],
  [
    'unknown vertex type in a seed',
    `S = {persn.*};`,
    err(2, 6, '"persn" is not a vertex type of graph socialNet'),
  ],
  [
    'unknown edge type',
    `S = {p};\nS = SELECT t FROM S:s -(follows:e)- person:t;`,
    err(3, 25, '"follows" is not an edge type of graph socialNet'),
  ],
  [
    'SELECT of an alias the FROM clause does not have',
    `S = {p};\nS = SELECT x FROM S:s -(friend:e)- person:t;`,
    err(3, 12, 'SELECT must name an alias of the FROM clause; "x" is not one'),
  ],
  [
    'WHERE that is not a condition',
    `S = {p};\nS = SELECT s FROM S:s WHERE s.gender;`,
    err(3, 29, 'WHERE needs BOOL, but this is STRING'),
  ],
  ['BREAK outside a loop', `BREAK;`, err(2, 1, 'BREAK is only allowed inside WHILE or FOREACH')],
  [
    'invalid accumulator element',
    `SumAccum<BOOL> @@b;`,
    err(2, 10, 'SumAccum<BOOL> is not a valid accumulator type'),
  ],
  ['wrong number of arguments', `PRINT abs(1, 2);`, err(2, 7, 'abs() takes 1 argument, not 2')],
  ['unknown function', `PRINT frobnicate(1);`, err(2, 7, 'unknown function frobnicate()')],
  ['duplicate declaration', `INT a = 1;\nINT a = 2;`, err(3, 5, '"a" is already declared in this scope')],
  ['comparison of unrelated types', `PRINT 1 == "a";`, err(2, 9, 'cannot compare INT with STRING')],
  ['string plus number', `PRINT "a" + 1;`, err(2, 11, '"+" cannot be applied to STRING and INT')],
  [
    'map insertion into a list accumulator',
    `ListAccum<INT> @@l;\n@@l += ("a" -> 1);`,
    err(3, 8, '"(key -> value)" cannot be added to a ListAccum'),
  ],
  [
    'directed edge without a direction in SYNTAX v2',
    `S = {p};\nS = SELECT t FROM S:s -(posted)- post:t;`,
    err(3, 25, 'the directed edge type posted needs a direction in SYNTAX v2: "posted>" or "<posted"'),
  ],
  [
    'assignment to a parameter of another type',
    `p = 3;`,
    err(2, 5, 'assignment to p needs VERTEX<person>, not INT'),
  ],
  [
    'PRINT … WHERE without a vertex set',
    `PRINT p WHERE true;`,
    err(2, 15, 'PRINT … WHERE needs a vertex set to print'),
  ],
  [
    'edge alias in POST-ACCUM',
    `SumAccum<INT> @@n;\nS = {p};\nS = SELECT t FROM S:s -(friend:e)- person:t POST-ACCUM @@n += e.since;`,
    err(4, 23, 'the edge alias e cannot be used in POST-ACCUM; use it in WHERE or ACCUM'),
  ],
];

for (const [name, body, expected] of cases) {
  test(`compile error: ${name}`, () => {
    const syntax = name.includes('SYNTAX v2') ? 'SYNTAX v2 ' : '';
    assert.equal(compileErrorOf(socialNet(), q(body, syntax)), expected);
  });
}

const syntaxCases: [string, string, string][] = [
  [
    'an alias on a repeated edge',
    `S = {p};\nS = SELECT t FROM S:s -(friend*1..2:e)- person:t;`,
    'Syntax Error: line 3, column 37: an edge alias is not allowed on a repeated edge ("*")',
  ],
  [
    'SELECT without assignment',
    `SELECT s FROM person:s;`,
    'Syntax Error: line 2, column 10: expected "INTO table" (a SQL-like SELECT stores its table; a vertex-set SELECT is assigned: "X = SELECT …") but found "FROM"',
  ],
  [
    'missing semicolon',
    `PRINT 1\nPRINT 2;`,
    'Syntax Error: line 3, column 1: expected ";" but found "PRINT"',
  ],
];

for (const [name, body, expected] of syntaxCases) {
  test(`syntax error: ${name}`, () => {
    assert.equal(compileErrorOf(socialNet(), q(body)), expected);
  });
}

test('run-time errors: bad DATETIME text, missing vertex parameter, unknown vertex id', async () => {
  const g = socialNet();
  await assert.rejects(runText(g, q(`PRINT to_datetime("not a date");`), { p: v('person', 'person1') }), {
    name: 'QueryRuntimeError',
    code: 'GSQL-2501',
    message: 'Runtime Error: "not a date" is not a valid DATETIME.',
  });
  await assert.rejects(runText(g, q(`S = {p};\nPRINT S;`), { p: v('person', 'nobody') }), {
    code: 'REST-30000',
    message: 'Failed to convert user vertex id for parameter p: person "nobody" does not exist.',
  });
  await assert.rejects(runText(g, q(`PRINT p;`), { p: v('post', '1') }), {
    message: 'Failed to convert parameter p: the vertex type must be person, not post.',
  });
});
