/**
 * The whole stored graph for one catalog: a table per vertex type and edge blocks per
 * (stored edge type, FROM type, TO type). Blocks are created when the first edge of a pair arrives,
 * which also serves `FROM *` edge types.
 *
 * A rebuild produces a new GraphStore that shares the vertex tables and holds merged blocks; readers
 * pinned to the old one keep the old blocks. A schema change produces a new GraphStore with new tables.
 */
import type { Catalog, EdgeType } from '../catalog/types.js';
import { EdgeBlock } from './edge-block.js';
import { VertexTable } from './vertex-table.js';

export class GraphStore {
  readonly tables = new Map<string, VertexTable>();
  readonly blocks: EdgeBlock[] = [];
  private readonly blockIds = new Map<string, number>();
  /** Block ids by stored edge type name. */
  readonly byEdgeType = new Map<string, number[]>();
  /** Block ids whose FROM (out) or TO (in) type is a vertex type. */
  readonly outBlocks = new Map<string, number[]>();
  readonly inBlocks = new Map<string, number[]>();

  constructor(
    readonly catalog: Catalog,
    version: number,
    tables?: Map<string, VertexTable>,
  ) {
    if (tables) for (const [k, t] of tables) this.tables.set(k, t);
    else for (const vt of catalog.vertexTypes) this.tables.set(vt.name, new VertexTable(vt, version));
  }

  static blockKey(edgeType: string, from: string, to: string): string {
    return `${edgeType}\u0000${from}\u0000${to}`;
  }

  getBlock(edgeType: string, from: string, to: string): EdgeBlock | undefined {
    const id = this.blockIds.get(GraphStore.blockKey(edgeType, from, to));
    return id === undefined ? undefined : this.blocks[id];
  }

  blockId(b: EdgeBlock): number {
    return this.blockIds.get(GraphStore.blockKey(b.edgeType.name, b.fromType, b.toType)) as number;
  }

  /** The block for a pair, created empty when missing. */
  ensureBlock(et: EdgeType, from: string, to: string, version: number): EdgeBlock {
    const existing = this.getBlock(et.name, from, to);
    if (existing) return existing;
    return this.addBlock(new EdgeBlock(et, from, to, version));
  }

  addBlock(b: EdgeBlock): EdgeBlock {
    const id = this.blocks.length;
    this.blocks.push(b);
    this.blockIds.set(GraphStore.blockKey(b.edgeType.name, b.fromType, b.toType), id);
    push(this.byEdgeType, b.edgeType.name, id);
    push(this.outBlocks, b.fromType, id);
    push(this.inBlocks, b.toType, id);
    return b;
  }

  /** Settles the edges appended unchecked in every block (edge-block.ts), before readers see them. */
  settle(): void {
    for (const b of this.blocks) b.settle();
  }
}

function push(m: Map<string, number[]>, k: string, v: number): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}
