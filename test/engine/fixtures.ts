/** A catalog covering every attribute type, id kind and edge shape, and temp data directories. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Attribute, AttrType, Catalog, EdgeType, VertexType } from '../../src/catalog/types.js';
import type { ReadTx } from '../../src/engine/api.js';
import { Database, type DatabaseOptions } from '../../src/engine/database.js';

const INT: AttrType = { kind: 'INT', bytes: 8 };
const UINT: AttrType = { kind: 'UINT', bytes: 8 };
const STR: AttrType = { kind: 'STRING', compress: false };

function vt(name: string, p: Partial<VertexType> & Pick<VertexType, 'primaryId'>): VertexType {
  return {
    name,
    keyKind: 'primary_id',
    keyAttributes: [],
    primaryIdAsAttribute: false,
    attributes: [],
    stats: 'OUTDEGREE_BY_EDGETYPE',
    ...p,
  };
}

function et(name: string, p: Partial<EdgeType> & Pick<EdgeType, 'pairs'>): EdgeType {
  return { name, directed: true, attributes: [], discriminator: [], ...p };
}

export const personAttrs: Attribute[] = [
  { name: 'age', type: INT, defaultLiteral: '18' },
  { name: 'big', type: INT },
  { name: 'u', type: UINT },
  { name: 'score', type: { kind: 'DOUBLE' } },
  { name: 'f', type: { kind: 'FLOAT' } },
  { name: 'ok', type: { kind: 'BOOL' } },
  { name: 'born', type: { kind: 'DATETIME' } },
  { name: 'tag', type: { kind: 'STRING', compress: true } },
  { name: 'bin', type: { kind: 'FIXED_BINARY', length: 4 } },
  { name: 'nums', type: { kind: 'LIST', element: INT } },
  { name: 'tags', type: { kind: 'SET', element: STR } },
  { name: 'm', type: { kind: 'MAP', key: STR, value: INT } },
  { name: 'pt', type: { kind: 'UDT', name: 'Point' } },
  { name: 'ref', type: { kind: 'VERTEX', vertexType: 'Person' } },
  { name: 'name2', type: STR, defaultLiteral: 'anon' },
];

export function fullCatalog(): Catalog {
  return {
    version: 1,
    tuples: [
      {
        name: 'Point',
        fields: [
          { name: 'x', type: INT },
          { name: 'y', type: { kind: 'DOUBLE' } },
        ],
      },
    ],
    vertexTypes: [
      vt('Person', {
        primaryId: { name: 'id', type: STR },
        primaryIdAsAttribute: true,
        attributes: personAttrs,
      }),
      vt('Num', { primaryId: { name: 'id', type: INT }, attributes: [{ name: 'v', type: INT }] }),
      vt('UNum', { primaryId: { name: 'id', type: UINT }, attributes: [] }),
      vt('Day', { primaryId: { name: 'd', type: { kind: 'DATETIME' } }, attributes: [] }),
      vt('Acct', {
        keyKind: 'composite',
        primaryId: { name: 'owner', type: STR },
        keyAttributes: ['owner', 'no'],
        attributes: [
          { name: 'owner', type: STR },
          { name: 'no', type: INT },
          { name: 'balance', type: INT },
        ],
      }),
      vt('Item', {
        keyKind: 'primary_key',
        primaryId: { name: 'sku', type: INT },
        keyAttributes: ['sku'],
        attributes: [
          { name: 'sku', type: INT },
          { name: 'title', type: STR },
        ],
      }),
    ],
    edgeTypes: [
      et('knows', {
        directed: false,
        pairs: [{ from: 'Person', to: 'Person' }],
        attributes: [{ name: 'weight', type: { kind: 'DOUBLE' } }],
      }),
      et('follows', {
        pairs: [{ from: 'Person', to: 'Person' }],
        reverseEdge: 'followed_by',
        attributes: [{ name: 'since', type: { kind: 'DATETIME' } }],
      }),
      et('transfer', {
        pairs: [{ from: 'Acct', to: 'Acct' }],
        attributes: [
          { name: 'ts', type: { kind: 'DATETIME' } },
          { name: 'amount', type: INT },
        ],
        discriminator: ['ts'],
      }),
      et('link', { pairs: [{ from: '*', to: '*' }] }),
      et('owns', {
        pairs: [
          { from: 'Person', to: 'Item' },
          { from: 'Num', to: 'Item' },
        ],
      }),
      et('near', { directed: false, pairs: [{ from: 'Person', to: 'Item' }] }),
    ],
    graphs: [
      {
        name: 'g',
        vertexTypes: ['Person', 'Num', 'UNum', 'Day', 'Acct', 'Item'],
        edgeTypes: ['knows', 'follows', 'transfer', 'link', 'owns', 'near'],
      },
    ],
    jobs: [],
  };
}

export interface TempDb {
  dir: string;
  open(extra?: Partial<DatabaseOptions>): Promise<Database>;
  cleanup(): void;
}

export function tempDir(): TempDb {
  const dir = mkdtempSync(join(tmpdir(), 'ocelot-engine-'));
  return {
    dir,
    open: (extra = {}) => Database.open({ dataDir: dir, rebuildIntervalMs: 0, ...extra }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Opens a fresh database with the full catalog. */
export async function freshDb(t: TempDb, extra: Partial<DatabaseOptions> = {}): Promise<Database> {
  const db = await t.open(extra);
  await db.changeCatalog(fullCatalog());
  return db;
}

/**
 * Everything a database holds, in a form deepEqual compares exactly: every vertex of every type
 * (row order, attributes) and the counts, and with `edges` every vertex's edges in order and the
 * edge counts. Values JSON cannot tell apart (bigint, -0, Map, bytes) are spelled out.
 */
export function graphSnapshot(db: Database, opts: { edges?: boolean } = {}): unknown {
  const r = db.read();
  try {
    return readerSnapshot(r, opts);
  } finally {
    r.release();
  }
}

/**
 * graphSnapshot's items sorted: the same graph whatever order its edges are read in (a merge
 * orders a vertex's edges by their other end; a delta lists them in the order they were written).
 */
export function sortedSnapshot(db: Database): string[] {
  return (graphSnapshot(db, { edges: true }) as unknown[]).map((x) => JSON.stringify(x)).sort();
}

/** graphSnapshot of what a reader sees (at its own version). */
export function readerSnapshot(r: ReadTx, opts: { edges?: boolean } = {}): unknown {
  const out: unknown[] = [];
  for (const vt of r.catalog.vertexTypes) {
    for (const row of r.rows(vt.name)) {
      out.push(r.vertex(vt.name, row));
      if (opts.edges) for (const e of r.edges(vt.name, row, { direction: 'both' })) out.push(r.edgeRecord(e));
    }
    out.push(r.vertexCount(vt.name));
  }
  if (opts.edges) for (const et of r.catalog.edgeTypes) out.push(et.name, r.edgeCount(et.name));
  return JSON.parse(
    JSON.stringify(out, (_k, v: unknown) =>
      typeof v === 'bigint'
        ? `${v}n`
        : Object.is(v, -0)
          ? '-0'
          : v instanceof Map || v instanceof Uint8Array
            ? [...v]
            : v,
    ),
  );
}

/**
 * Closes two databases that hold the same graph (`a` written one way, `b` another), reopens them
 * from their logs and checks that they still hold the same graph, then merged (a merge orders
 * edges by their rows, so both are merged for the same order); closes them.
 */
export async function assertSameAfterReplay(ta: TempDb, tb: TempDb, a: Database, b: Database): Promise<void> {
  const edges = { edges: true };
  await a.close();
  await b.close();
  a = await ta.open();
  b = await tb.open();
  try {
    assert.deepEqual(graphSnapshot(b, edges), graphSnapshot(a, edges), 'after WAL replay');
    await a.mergeFresh({ minDelta: 1, share: 1e9 });
    await b.mergeFresh({ minDelta: 1, share: 1e9 });
    assert.deepEqual(graphSnapshot(b, edges), graphSnapshot(a, edges), 'after WAL replay and a merge');
  } finally {
    await a.close();
    await b.close();
  }
}
