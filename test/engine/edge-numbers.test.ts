/**
 * Edges whose attributes are all plain numbers (DATETIME, DOUBLE, FLOAT, 64-bit INT and UINT),
 * appended unchecked from a run's values by shape as a loading batch gives them: the numbers go to
 * the columns and the WAL without a checked value each (edge-run-writer.ts `appendNumbers`). Runs
 * mixing that path with edges that leave an attribute out, use another op or give a value that
 * does not fit its type (a fraction for a DATETIME, an unsafe or negative integer, a string) leave
 * the graph, the counts and the refusals exactly as edge-by-edge upserts do, and so does the WAL:
 * the same graph after a replay, and after a merge.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Catalog } from '../../src/catalog/types.js';
import type { Value } from '../../src/catalog/value.js';
import {
  type AttrShape,
  type AttrUpdate,
  EngineError,
  type EdgeRunCounts,
  type UpsertOp,
} from '../../src/engine/api.js';
import type { Database } from '../../src/engine/database.js';
import { assertSameAfterReplay, fullCatalog, graphSnapshot, tempDir } from './fixtures.js';

const EDGES = { edges: true };
const NAMES = ['ts', 'score', 'f', 'n', 'u'];

/** The fixture catalog with `rated` (Person -> Person, reverse edge): one attribute of each plain number type. */
function ratedCatalog(): Catalog {
  const c = fullCatalog();
  c.edgeTypes.push({
    name: 'rated',
    directed: true,
    pairs: [{ from: 'Person', to: 'Person' }],
    reverseEdge: 'rated_by',
    attributes: [
      { name: 'ts', type: { kind: 'DATETIME' } },
      { name: 'score', type: { kind: 'DOUBLE' } },
      { name: 'f', type: { kind: 'FLOAT' } },
      { name: 'n', type: { kind: 'INT', bytes: 8 } },
      { name: 'u', type: { kind: 'UINT', bytes: 8 } },
    ],
    discriminator: [],
  });
  c.graphs[0].edgeTypes.push('rated');
  return c;
}

/**
 * One edge: its ends, its values in NAMES order, and its form: `all` sets every attribute (the
 * numbers path when the values fit), `some` leaves `f` and `u` out, `max` sets `n` with op max.
 */
interface Edge {
  from: number;
  to: number;
  values: Value[];
  form: 'all' | 'some' | 'max';
}

const tsArb = fc.oneof(
  fc.integer({ min: -1_000_000_000, max: 2_000_000_000 }),
  fc.constantFrom<Value>(1.5, 1e15, -0, '2020-01-01'),
);
const scoreArb = fc.oneof(fc.double({ noNaN: true }), fc.constantFrom<Value>(-0, 'x'));
const intArb = fc.oneof(
  fc.integer({ min: -5, max: 5 }),
  fc.constantFrom<Value>(2 ** 53 + 2, -(2 ** 53) - 2, 0.5, -0, 2 ** 31, -(2 ** 31) - 1),
);

const edgeArb: fc.Arbitrary<Edge> = fc.record({
  from: fc.integer({ min: 0, max: 3 }),
  to: fc.integer({ min: 0, max: 3 }),
  values: fc.tuple(tsArb, scoreArb, fc.double({ noNaN: true }), intArb, intArb),
  form: fc.constantFrom<Edge['form']>('all', 'all', 'all', 'some', 'max'),
});

const SHAPES: Record<Edge['form'], AttrShape> = {
  all: { names: NAMES, ops: ['set', 'set', 'set', 'set', 'set'] },
  some: { names: ['ts', 'score', 'n'], ops: ['set', 'set', 'set'] },
  max: { names: NAMES, ops: ['set', 'set', 'set', 'max', 'set'] },
};

function valuesOf(e: Edge): Value[] {
  return e.form === 'some' ? [e.values[0], e.values[1], e.values[3]] : e.values;
}

function attrsOf(e: Edge): Record<string, AttrUpdate> {
  const shape = SHAPES[e.form];
  const vs = valuesOf(e);
  const out: Record<string, AttrUpdate> = {};
  shape.names.forEach((n, j) => (out[n] = { value: vs[j], op: shape.ops[j] as UpsertOp }));
  return out;
}

/** The reference: each edge upserted on its own, a refused one counted. */
function oneByOne(db: Database, edges: Edge[]): Promise<number> {
  return db.write((tx) => {
    let invalid = 0;
    for (const e of edges) {
      try {
        tx.upsertEdge('rated', 'Person', `p${e.from}`, 'Person', `p${e.to}`, attrsOf(e));
      } catch (err) {
        if (!(err instanceof EngineError)) throw err;
        invalid++;
      }
    }
    return invalid;
  });
}

/**
 * The same edges as one unchecked run with values by shape: in a Float64Array when every value is
 * a number (as a loading batch holds them), else in an array.
 */
function byShape(db: Database, edges: Edge[]): Promise<EdgeRunCounts> {
  const list = [SHAPES.all, SHAPES.some, SHAPES.max];
  const flat: Value[] = [];
  const at: number[] = [];
  for (const e of edges) {
    at.push(flat.length);
    flat.push(...valuesOf(e));
  }
  const values = flat.every((v) => typeof v === 'number') ? Float64Array.from(flat as number[]) : flat;
  return db.write((tx) =>
    tx.upsertEdges(
      {
        edgeType: 'rated',
        fromType: 'Person',
        toType: 'Person',
        fromIds: edges.map((e) => `p${e.from}`),
        toIds: edges.map((e) => `p${e.to}`),
        attrs: null,
        shapes: { list, of: edges.map((e) => list.indexOf(SHAPES[e.form])), values, at },
        start: 0,
        end: edges.length,
      },
      { createMissingEndpoints: true, unchecked: true },
    ),
  );
}

test('plain number attributes appended from values by shape leave the graph, counts and refusals of edge-by-edge upserts, after a replay and a merge', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.array(edgeArb, { maxLength: 20 }), { minLength: 1, maxLength: 4 }),
      async (batches) => {
        const ta = tempDir();
        const tb = tempDir();
        try {
          const a = await ta.open();
          const b = await tb.open();
          await a.changeCatalog(ratedCatalog());
          await b.changeCatalog(ratedCatalog());
          for (const edges of batches) {
            const invalid = await oneByOne(a, edges);
            const counts = await byShape(b, edges);
            assert.equal(counts.invalid, invalid, 'refused values');
            assert.deepEqual(graphSnapshot(b, EDGES), graphSnapshot(a, EDGES));
          }
          await assertSameAfterReplay(ta, tb, a, b);
        } finally {
          ta.cleanup();
          tb.cleanup();
        }
      },
    ),
    { numRuns: 60 },
  );
});
