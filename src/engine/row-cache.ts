/**
 * Vertex rows remembered by id code (EdgeRun.codes): a load whose parse threads send STRING ids as
 * codes into a dictionary (loading/id-words.ts) keeps one of these per dictionary, so that the
 * writer looks each distinct id up in the id index once per load instead of once per edge end.
 *
 * A remembered row is a hint, checked where it is used as a looked-up row is (the writer's view:
 * below the table's row count and not deleted). That check is exact because rows are only ever
 * appended and stamped deleted, never renumbered, and a row number goes to another id only after
 * an aborted transaction took it back, which the table counts (VertexTable.rowsTakenBack): the
 * rows remembered before are then forgotten. A vertex deleted since (and re-inserted at a new
 * row) fails the check and is looked up again, and a table replaced by a schema change or a
 * cleared store has rows of its own (rows are kept per table object).
 */

/** Marks a code whose row is not known. */
const UNKNOWN = -1;

export class RowCache {
  private byTable = new WeakMap<object, { rows: Int32Array; takenBack: number }>();
  /** Codes 0 .. size-1 may be asked for. */
  private size = 0;

  /** Makes codes below `n` usable (the dictionary holds n words). */
  reserve(n: number): void {
    if (n > this.size) this.size = n;
  }

  /** Forgets every row (the dictionary starts again). */
  clear(): void {
    this.byTable = new WeakMap();
    this.size = 0;
  }

  /**
   * The rows of `table`'s vertices by code (UNKNOWN where not known), for every usable code;
   * `takenBack` is the table's VertexTable.rowsTakenBack: when it moved, the rows remembered
   * before are forgotten, since an aborted transaction's row numbers go to other ids next.
   */
  rows(table: object, takenBack: number): Int32Array {
    const have = this.byTable.get(table);
    if (have !== undefined && have.takenBack === takenBack && have.rows.length >= this.size) return have.rows;
    const length = Math.max(this.size, 2 * (have?.rows.length ?? 0), 1024);
    const rows = new Int32Array(length).fill(UNKNOWN);
    if (have !== undefined && have.takenBack === takenBack) rows.set(have.rows);
    this.byTable.set(table, { rows, takenBack });
    return rows;
  }
}
