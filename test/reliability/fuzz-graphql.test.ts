/**
 * Fuzzing of the GraphQL service over HTTP (POST /api/graphql/gsql/{graph} on the GSQL port):
 * mutated queries and mutations, any JSON as the request body. Every answer is JSON with `data` or
 * `errors`, never a 5xx, a stack frame or a source path, and an answer with errors and no data
 * changed nothing.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { soakScale } from './scale.js';
import {
  assertFuzz,
  FUZZ_MS,
  LEAK,
  mutate,
  mutation,
  startFuzzServer,
  type FuzzServer,
} from './fuzz-helpers.js';

let fz: FuzzServer;
before(async () => {
  fz = await startFuzzServer();
});
after(async () => {
  await fz.close();
});

const BASIC = `Basic ${Buffer.from('tigergraph:tigergraph').toString('base64')}`;

const TEMPLATES = [
  'query { G { Item(where: {req: {_gt: 3}}, limit: 2, offset: 1) { id req k name Link { to { id req } } } } }',
  'query { G { Item(where: {_or: [{name: {_eq: "n1"}}, {score: {_lte: 2.5}}]}, order_by: {req: desc}) { id score } } }',
  'query { G { Num { id v Near { to { id } w } } } }',
  'query Q($r: Int) { G { Item(where: {req: {_eq: $r}}) { id } } }',
  'mutation { G { insert_Item(objects: [{id: "gq1", req: 5, k: 1}]) { id } } }',
  'mutation { G { delete_Item(where: {id: {_eq: "nope"}}) { id } } }',
  '{ __schema { types { name } } }',
];
const VOCAB = [
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  ':',
  '$',
  '!',
  '...',
  '@include',
  'query',
  'mutation',
  'fragment',
  'on',
  'G',
  'Item',
  'Num',
  'Link',
  'id',
  'req',
  '_eq',
  '_gt',
  '_in',
  '_and',
  '_or',
  '_not',
  'where',
  'limit',
  '-1',
  '1e999',
  '9223372036854775808',
  '"',
  '"\\u0000"',
  'null',
  'true',
  '__typename',
  '#',
];

const body = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...TEMPLATES),
        fc.array(mutation(VOCAB), { minLength: 0, maxLength: 4 }),
        fc.option(fc.dictionary(fc.constantFrom('r', 'x'), fc.jsonValue({ maxDepth: 2 }))),
      )
      .map(([t, m, variables]) =>
        JSON.stringify({ query: mutate(t, m), ...(variables ? { variables } : {}) }),
      ),
  },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 100 }) },
);

test('GraphQL requests: JSON answers, no 5xx, no stack, errors without data change nothing', async () => {
  await assertFuzz(
    'GraphQL',
    fc.asyncProperty(body, async (text) => {
      const before = fz.servers.db.version;
      const res = await fetch(`${fz.servers.urls.gsql}/api/graphql/gsql/G`, {
        method: 'POST',
        headers: { authorization: BASIC, 'content-type': 'application/json' },
        body: text,
        signal: AbortSignal.timeout(10_000),
      });
      const out = await res.text();
      assert.ok(res.status < 500, `${res.status}: ${out.slice(0, 300)}`);
      assert.doesNotMatch(out, LEAK, out.slice(0, 400));
      type Answer = { data?: unknown; errors?: { message?: unknown }[] };
      const parsed = JSON.parse(out) as Answer | Answer[];
      // A JSON array is a batch: one answer per request, each under the same contract.
      for (const answer of Array.isArray(parsed) ? parsed : [parsed]) {
        assert.ok('data' in answer || 'errors' in answer || 'error' in answer, out.slice(0, 300));
        if (answer.errors !== undefined) {
          assert.ok(
            Array.isArray(answer.errors) && answer.errors.every((e) => typeof e.message === 'string'),
          );
          if (answer.data === undefined || answer.data === null)
            assert.equal(fz.servers.db.version, before, `an error changed the data: ${text}`);
        }
      }
    }),
    { numRuns: 3000 * soakScale(), interruptAfterTimeLimit: FUZZ_MS },
  );
});
