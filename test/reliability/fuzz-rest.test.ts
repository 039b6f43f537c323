/**
 * Fuzzing of the REST++ inputs: JSON bodies of POST /graph (upsert) and POST /builtins, raw bytes
 * as bodies, query strings and filter expressions of GET /graph/.../vertices and edges. Every answer
 * must be a clean envelope (see fuzz-helpers.ts); the server stays up.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { soakScale } from './scale.js';
import { assertFuzz, checkedRequest, FUZZ_MS, startFuzzServer, type FuzzServer } from './fuzz-helpers.js';

let fz: FuzzServer;
before(async () => {
  fz = await startFuzzServer();
});
after(async () => {
  await fz.close();
});

const opts = (seedRuns: number) => ({
  numRuns: seedRuns * soakScale(),
  interruptAfterTimeLimit: FUZZ_MS,
  includeErrorInReport: true,
});

const names = fc.constantFrom(
  'Item',
  'Num',
  'Link',
  'rev_Link',
  'Near',
  'Nope',
  '',
  'i0',
  'i1',
  '1',
  '2',
  'req',
  'k',
  'v',
  'w',
  'name',
  'score',
  'ok',
  'at',
  'tags',
  'id',
  '__proto__',
  'constructor',
);
const scalar = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('9223372036854775808', '-1', '1e400', '2024-01-01 00:00:00', 'NaN', '\u0000', '\ud800'),
  fc.bigInt().map((b) => b),
);
const attrValue = fc.oneof(
  fc.record({ value: scalar }, { requiredKeys: [] }),
  fc.record({
    value: scalar,
    op: fc.constantFrom('add', 'max', 'min', 'or', 'and', 'ignore_if_exists', '~', 'bogus'),
  }),
  scalar,
  fc.array(scalar, { maxLength: 3 }),
);
const attrs = fc.dictionary(names, attrValue, { maxKeys: 4 });
const vertexSection = fc.dictionary(
  names,
  fc.dictionary(fc.oneof(names, fc.string()), attrs, { maxKeys: 3 }),
  { maxKeys: 3 },
);
const edgeSection = fc.dictionary(
  names,
  fc.dictionary(
    fc.oneof(names, fc.string()),
    fc.dictionary(
      names,
      fc.dictionary(names, fc.dictionary(fc.oneof(names, fc.string()), attrs, { maxKeys: 2 }), {
        maxKeys: 2,
      }),
      { maxKeys: 2 },
    ),
    { maxKeys: 2 },
  ),
  { maxKeys: 2 },
);
/** Mostly well-formed upsert bodies, with JSON of any shape mixed in. */
const upsertBody = fc.oneof(
  { weight: 4, arbitrary: fc.record({ vertices: vertexSection, edges: edgeSection }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.jsonValue() },
);

/** JSON text with big integers written as digits (JSON.stringify cannot). */
function toJson(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `__BIG${x}__` : x)).replace(
    /"__BIG(-?\d+)__"/g,
    '$1',
  );
}

test('POST /graph upsert bodies: clean envelope, no change on error', async () => {
  const q = fc.constantFrom(
    '',
    '?vertex_must_exist=true',
    '?new_vertex_only=1',
    '?ack=none',
    '?atomic_post=maybe',
    '?update_vertex_only=True',
  );
  await assertFuzz(
    'POST /graph',
    fc.asyncProperty(upsertBody, q, async (body, query) => {
      await checkedRequest(fz, `${fz.restpp}/graph/G${query}`, { method: 'POST', body: toJson(body) });
    }),
    opts(2000),
  );
});

test('POST /builtins bodies: clean envelope', async () => {
  const body = fc.oneof(
    fc.record(
      {
        function: fc.constantFrom(
          'stat_vertex_number',
          'stat_edge_number',
          'stat_vertex_attr',
          'stat_edge_attr',
          'nope',
          '',
        ),
        type: fc.oneof(names, fc.constant('*'), fc.string()),
        from_type: fc.oneof(names, fc.constant('*')),
        to_type: fc.oneof(names, fc.constant('*')),
      },
      { requiredKeys: [] },
    ),
    fc.jsonValue(),
  );
  await assertFuzz(
    'POST /builtins',
    fc.asyncProperty(body, async (b) => {
      await checkedRequest(fz, `${fz.restpp}/builtins/G`, { method: 'POST', body: JSON.stringify(b) });
    }),
    opts(2000),
  );
});

test('raw bytes as bodies of the JSON endpoints: clean envelope', async () => {
  const paths = fc.constantFrom('/graph/G', '/builtins/G', '/shortestpath/G', '/allpaths/G', '/graph/Nope');
  const bytes = fc.oneof(
    fc.uint8Array({ maxLength: 300 }),
    fc.string({ unit: 'binary', maxLength: 200 }).map((s) => new TextEncoder().encode(s)),
    fc
      .constantFrom(
        '{',
        '[',
        '{"vertices":',
        '{"a":1,"a":2}',
        '[[[[[[[[',
        '{"vertices":{"Item":{"x":{"req":{"value":1e999}}}}}',
        '\ufeff{}',
      )
      .map((s) => new TextEncoder().encode(s)),
  );
  await assertFuzz(
    'raw bodies',
    fc.asyncProperty(paths, bytes, async (path, body) => {
      await checkedRequest(fz, `${fz.restpp}${path}`, { method: 'POST', body });
    }),
    opts(2000),
  );
});

const filterAtom = fc.oneof(
  fc
    .tuple(
      names,
      fc.constantFrom('=', '!=', '>', '<', '>=', '<=', '=~', '==', ''),
      fc.oneof(fc.integer().map(String), fc.string(), fc.constantFrom('"x"', "'x'", '1.5', 'true', '-', '"')),
    )
    .map(([a, op, v]) => `${a}${op}${v}`),
  fc.string(),
);
const filter = fc.array(filterAtom, { minLength: 1, maxLength: 3 }).map((a) => a.join(','));
const queryString = fc
  .array(
    fc.oneof(
      filter.map((f) => `filter=${encodeURIComponent(f)}`),
      fc
        .oneof(
          fc.nat().map(String),
          fc.string(),
          fc.constantFrom('-1', '1e3', '99999999999999999999', '0x10'),
        )
        .map((l) => `limit=${encodeURIComponent(l)}`),
      fc.array(names, { maxLength: 3 }).map((s) => `select=${s.join(',')}`),
      fc
        .array(fc.tuple(fc.constantFrom('', '-'), names), { maxLength: 2 })
        .map((s) => `sort=${s.map(([d, n]) => d + n).join(',')}`),
      fc.constantFrom(
        'count_only=true',
        'count_only=maybe',
        'timeout=-5',
        'timeout=abc',
        'v[0].type=Item',
        '&&&',
        '=',
        '%',
        '%zz',
        'a=%E0%A4%A',
      ),
      fc.string().map((s) => encodeURIComponent(s)),
    ),
    { maxLength: 4 },
  )
  .map((parts) => parts.join('&'));

test('GET vertices and edges: query strings and filter expressions give clean answers', async () => {
  const paths = fc.constantFrom(
    '/graph/G/vertices/Item',
    '/graph/G/vertices/Num',
    '/graph/G/vertices/Item/i0',
    '/graph/G/vertices/Nope',
    '/graph/G/edges/Item/i0',
    '/graph/G/edges/Item/i0/Link',
    '/graph/G/edges/Item/i0/Near/Num',
    '/graph/G/edges/Num/1/Near',
  );
  await assertFuzz(
    'GET query strings',
    fc.asyncProperty(paths, queryString, async (path, qs) => {
      await checkedRequest(fz, `${fz.restpp}${path}?${qs}`);
    }),
    opts(3000),
  );
  const alive = await fetch(`${fz.restpp}/echo`);
  assert.equal(alive.status, 200);
});
