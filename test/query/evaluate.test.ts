/**
 * evaluate(): expressions given as strings, compiled at run time where the call stands; run-time
 * errors for what it cannot see, silent failures for attributes the alias's type lacks.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { libraryGraph } from '../fixtures/query/library.js';
import { compileErrorOf, runText } from '../fixtures/query/run.js';

const Q = `CREATE QUERY ev(STRING cond = "TRUE", STRING val = "1") FOR GRAPH library {
  SetAccum<INT> @@vals;
  SumAccum<INT> @stars;
  R = SELECT r FROM reader:r -(reviewed:e)-> book:b
      WHERE evaluate(cond)
      ACCUM r.@stars += e.stars
      POST-ACCUM @@vals += evaluate(val, "int");
  PRINT @@vals;
}`;

const vals = async (args: Record<string, unknown>): Promise<number[]> => {
  const out = (await runText(libraryGraph(), Q, args)) as { '@@vals': number[] }[];
  return [...out[0]['@@vals']].sort((a, b) => a - b);
};

test('evaluate() with the defaults, and over aliases, edge attributes and vertex accumulators', async () => {
  assert.deepEqual(await vals({}), [1]);
  assert.deepEqual(await vals({ cond: 'e.stars > 3', val: 'r.@stars * 10' }), [50]);
  assert.deepEqual(await vals({ cond: 'r.city == "Oslo" AND b.year < 2000', val: 'r.age + 1' }), [28, 32]);
  assert.deepEqual(await vals({ val: 'abs(r.@stars - 4)' }), [1, 2]);
});

test('an attribute the alias type lacks fails silently: WHERE is false, the statement is skipped', async () => {
  assert.deepEqual(await vals({ cond: 'e.nothing == 1' }), []);
  assert.deepEqual(await vals({ val: 'r.nothing' }), []);
  assert.deepEqual(await vals({ val: 'r.city == 3' }), []);
});

test('names evaluate() cannot see, non-primitive attributes and wrong result types are run-time errors', async () => {
  const err = (args: Record<string, unknown>) => assert.rejects(vals(args));
  await assert.rejects(vals({ cond: 'xx' }), { message: 'Runtime Error: xx is undefined parameter.' });
  await assert.rejects(vals({ cond: 'r.city' }), {
    message: "Runtime Error: Expression 'r.city' value type is not bool.",
  });
  await assert.rejects(vals({ val: '"text"' }), {
    message: `Runtime Error: Expression '"text"' value type is not int.`,
  });
  await err({ cond: 'r.city ==' });
  await assert.rejects(vals({ cond: 'evaluate("TRUE")' }), /cannot be nested/);
});

test('a DATETIME attribute or a container accumulator is refused when the query runs', async () => {
  const q = `CREATE QUERY ev2(STRING cond) FOR GRAPH library {
    SetAccum<INT> @@set;
    R = SELECT r FROM reader:r -(borrowed:e)-> book WHERE evaluate(cond);
    PRINT R.size() AS n;
  }`;
  await assert.rejects(runText(libraryGraph(), q, { cond: 'e.day' }), {
    message: 'Runtime Error: day is not a primitive type attribute.',
  });
  await assert.rejects(runText(libraryGraph(), q, { cond: '@@set.size() > 0' }), {
    message: 'Runtime Error: @@set is not a primitive type accumulator.',
  });
  assert.deepEqual(await runText(libraryGraph(), q, { cond: 'e.type == "borrowed"' }), [{ n: 3 }]);
});

test('a local variable is not visible to evaluate(); a body-level assignment with a failing call is skipped', async () => {
  const q = `CREATE QUERY ev3(STRING x) FOR GRAPH library {
    INT n = 7;
    SumAccum<INT> @@a = 5;
    @@a = evaluate(x, "int");
    PRINT @@a;
  }`;
  await assert.rejects(runText(libraryGraph(), q, { x: 'n' }), {
    message: 'Runtime Error: n is undefined parameter.',
  });
  assert.deepEqual(await runText(libraryGraph(), q, { x: '2 * 21' }), [{ '@@a': 42 }]);
  assert.deepEqual(await runText(libraryGraph(), q, { x: '1 == "a"' }), [{ '@@a': 5 }]);
});

test('CREATE refuses a type that is not a literal primitive type name, and wrong arity', () => {
  const q = (call: string): string => `CREATE QUERY ev4(STRING s) FOR GRAPH library {
  PRINT ${call};
}`;
  assert.match(compileErrorOf(libraryGraph(), q('evaluate(s, "list")')), /line 2, col 21\n.*"int", "uint"/);
  assert.match(compileErrorOf(libraryGraph(), q('evaluate(s, s)')), /line 2, col 21\n.*string literal/);
  assert.match(compileErrorOf(libraryGraph(), q('evaluate()')), /line 2/);
  assert.match(compileErrorOf(libraryGraph(), q('evaluate(1)')), /line 2, col 18/);
  assert.equal(compileErrorOf(libraryGraph(), q('evaluate(s, "DOUBLE") + 1')), '');
});
