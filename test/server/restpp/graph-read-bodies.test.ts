/**
 * The bodies of REST++ point reads and vertex lists, written from columns (and answered by the
 * REST++ listener's fast path when the request is plain), are byte for byte the general envelope:
 * `stringifyJson(okEnvelope(records))` of the records tx.vertex builds, for every attribute type.
 * The same requests sent so that Fastify answers them (a GSQL-TIMEOUT header) give the same bytes
 * and headers.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Tuple, type Value } from '../../../src/catalog/value.js';
import type { AttrUpdate } from '../../../src/engine/api.js';
import { okEnvelope } from '../../../src/server/http/envelope.js';
import { vertexJson } from '../../../src/server/restpp/graph-records.js';
import { findGraph, graphVertexTypes, vertexAttrTypes } from '../../../src/server/restpp/graph-schema.js';
import { parseDatetime } from '../../../src/util/datetime.js';
import { stringifyJson } from '../../../src/util/json.js';
import { startHarness, type Harness } from './graph-harness.js';

let h: Harness;

const set = (value: Value): AttrUpdate => ({ value, op: 'set' });
const at = (text: string): number => parseDatetime(text) as number;

/** Strings a fast writer could get wrong: escapes, controls, non-ASCII, surrogates, long texts. */
const STRINGS = [
  '',
  'plain',
  'quote " and backslash \\',
  'new\nline\ttab\r\u0001\u001f',
  'é ü 中文',
  'emoji 😀 pair',
  'lone \ud800 surrogate',
  'line sep \u2028 para \u2029',
  'x'.repeat(63) + '"',
  'y'.repeat(200),
  '</script>',
];

before(async () => {
  // No idle merge: one landing between the two requests of a comparison may rewrite what they
  // read (a lone surrogate came back as U+FFFD from the second request under a loaded full run).
  h = await startHarness({}, { idleMergeMs: 0 });
  await h.db.write((tx) => {
    STRINGS.forEach((s, i) => {
      tx.upsertVertex('vertex1_all_types', `id${i}`, {
        a01_int: set(i % 2 === 0 ? -9223372036854775808n : -7),
        a02_uint: set(i % 2 === 0 ? 18446744073709551615n : 42),
        a03_float: set([0.1, 1.5e-7, -0, 3.4028234663852886e38, 1e21, 2.5][i % 6]),
        a04_double: set([0.1 + 0.2, 1e21, 123456789.125, -1e-7, 5e-324, 0][i % 6]),
        a05_datetime: set(at(i % 2 === 0 ? '1970-01-01 00:00:00' : '2024-06-15 12:30:45')),
        a06_bool: set(i % 2 === 0),
        a07_string: set(s),
        a10_udt: set(new Tuple('tuple2_simple', [i, s.slice(0, 10), at('2000-02-29 23:59:59')])),
        a11_list_int: set(i % 3 === 0 ? [] : [3, -1, 3, 9007199254740993n]),
        a19_set_int: set(i % 3 === 1 ? [] : [5, 1]),
        a27_int_int: set(
          i % 3 === 2
            ? new Map()
            : new Map<number, number>([
                [1, -1],
                [-2, 2],
              ]),
        ),
        a41_string_string: set(
          new Map([
            [s, s],
            ['k"\\', 'v\u0000'],
          ]),
        ),
      });
    });
    // Nothing set: every attribute at its default (empty lists and maps, 0, '', the epoch).
    tx.upsertVertex('vertex1_all_types', 'defaults', {});
    tx.upsertVertex('vertex1_all_types', 'id "quoted" \\ é', { a07_string: set('x') });
    tx.upsertVertex('vertex3_primary_key_composite', '7,a b,2020-01-01 00:00:00', {});
    for (let i = 1; i <= 3; i++) tx.upsertVertex('vertex4', String(i), { a01: set(i * 1000) });
    tx.upsertVertex('vertex7', '5', {});
  });
});

after(async () => {
  await h.close();
});

/** GET on the REST++ port; `slow` adds a header that sends the request through Fastify. */
async function get(
  path: string,
  slow: boolean,
): Promise<{ status: number; type: string; length: string; text: string }> {
  const res = await fetch(h.rest + path, { headers: slow ? { 'GSQL-TIMEOUT': '16000' } : {} });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    length: res.headers.get('content-length') ?? '',
    text: await res.text(),
  };
}

/** The general envelope of these rows' records, as the serializer writes it. */
function expected(vertexType: string, rows: readonly number[], attrs?: string[]): string {
  const tx = h.db.read();
  try {
    const vt = tx.catalog.vertexTypes.find((v) => v.name === vertexType)!;
    const types = vertexAttrTypes(vt);
    return stringifyJson(
      okEnvelope(rows.map((row) => vertexJson(tx.vertex(vertexType, row, attrs), types, tx.catalog))),
    );
  } finally {
    tx.release();
  }
}

function liveRows(vertexType: string): { row: number; id: string }[] {
  const tx = h.db.read();
  try {
    return Array.from(tx.rows(vertexType), (row) => ({ row, id: tx.vertexId(vertexType, row) }));
  } finally {
    tx.release();
  }
}

async function assertSame(path: string, body: string): Promise<void> {
  const fast = await get(path, false);
  const slow = await get(path, true);
  assert.equal(fast.status, 200, `${path}: ${fast.text}`);
  assert.equal(fast.text, body, path);
  assert.deepEqual(slow, fast, `${path} through Fastify`);
  assert.equal(fast.type, 'application/json; charset=utf-8');
  assert.equal(fast.length, String(Buffer.byteLength(body)));
}

test('vertex lists are the general envelope of their records, every attribute type, selected or not', async () => {
  const graph = findGraph(h.db.catalog, 'tests')!;
  for (const vt of graphVertexTypes(h.db.catalog, graph)) {
    const rows = liveRows(vt.name).map((r) => r.row);
    await assertSame(`/graph/tests/vertices/${vt.name}`, expected(vt.name, rows));
    await assertSame(`/graph/tests/vertices/${vt.name}?limit=2`, expected(vt.name, rows.slice(0, 2)));
    const some = vt.attributes.slice(-2).map((a) => a.name);
    if (some.length > 0) {
      await assertSame(
        `/graph/tests/vertices/${vt.name}?select=${some.join(',')}`,
        expected(vt.name, rows, some),
      );
    }
  }
  // The graph-less form names no graph, and there are two: refused the same way on both paths.
  const refused = await get('/graph/vertices/vertex4', false);
  assert.equal(refused.status, 400);
  assert.deepEqual(await get('/graph/vertices/vertex4', true), refused);
});

test('point reads are the general envelope of the record, every attribute type and id form', async () => {
  for (const vertexType of ['vertex1_all_types', 'vertex3_primary_key_composite', 'vertex4', 'vertex7']) {
    const vt = h.db.catalog.vertexTypes.find((v) => v.name === vertexType)!;
    const last = vt.attributes.slice(-1).map((a) => a.name);
    for (const { row, id } of liveRows(vertexType)) {
      const path = `/graph/tests/vertices/${vertexType}/${encodeURIComponent(id)}`;
      await assertSame(path, expected(vertexType, [row]));
      await assertSame(`${path}?select=${last.join(',')}`, expected(vertexType, [row], last));
    }
  }
});

test('errors of the hot reads are answered as before, whichever way the request came', async () => {
  for (const path of [
    '/graph/tests/vertices/vertex4/999',
    '/graph/tests/vertices/nope/1',
    '/graph/nope/vertices/vertex4/1',
    '/graph/tests/vertices/vertex4?limit=x',
    '/graph/tests/vertices/vertex4/1?select=missing',
    '/graph/other/vertices/vertex1_all_types',
  ]) {
    const fast = await get(path, false);
    assert.ok(fast.status >= 400, `${path}: ${fast.status}`);
    assert.equal((JSON.parse(fast.text) as { error: boolean }).error, true);
    assert.deepEqual(await get(path, true), fast, path);
  }
});
